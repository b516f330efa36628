// Runs one repository contract (storage/port/*.contract.ts) on every backend from one test file: SQLite, then
// PostgreSQL in a fresh database per case, copied from a database migrated once per test file. PostgreSQL's cases are
// skipped with a message naming the server when it does not answer.
import { after, describe } from 'node:test';
import { PG_HOST_MIGRATIONS } from '../postgres/migrations/index.js';
import { applyPgMigrations } from '../postgres/pg-migrator.js';
import {
  createTestDatabase,
  dropTestDatabase,
  pgUnavailable,
  type TestDatabase,
} from '../postgres/testing/pg-test-database.js';

/** A contract's registration: `make` builds the store under test for one case; `close` releases it. */
export type Contract<F extends { close(): Promise<void> }> = (name: string, make: () => Promise<F>) => void;

export interface BackendMakers<F extends { close(): Promise<void> }> {
  /** A fresh store on SQLite. */
  sqlite(): Promise<F>;
  /** A store on `db`, a fresh PostgreSQL database with the host's migrations applied (dropped after `close`). */
  postgres(db: TestDatabase): Promise<F>;
}

let skip: Promise<string | null> | undefined;

/** A database of the host's migrations that each case copies (far cheaper than migrating each one). */
async function migratedTemplate(): Promise<string> {
  const db = await createTestDatabase(1);
  await applyPgMigrations(db.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
  await db.pool.end();
  return db.name;
}

/** Registers `contract` once per backend; await it at the top of the test file (it asks the server first). */
export async function onEachBackend<F extends { close(): Promise<void> }>(
  contract: Contract<F>,
  makers: BackendMakers<F>,
): Promise<void> {
  contract('SQLite', makers.sqlite);
  skip ??= pgUnavailable();
  const reason = await skip;
  describe('PostgreSQL', { skip: reason ?? false }, () => {
    let template: Promise<string> | undefined;
    after(async () => {
      if (template) await dropTestDatabase(await template);
    });
    contract('PostgreSQL', async () => {
      template ??= migratedTemplate();
      const db = await createTestDatabase(4, await template);
      try {
        const fixture = await makers.postgres(db);
        return {
          ...fixture,
          close: async () => {
            try {
              await fixture.close();
            } finally {
              await db.drop();
            }
          },
        };
      } catch (err) {
        await db.drop();
        throw err;
      }
    });
  });
}

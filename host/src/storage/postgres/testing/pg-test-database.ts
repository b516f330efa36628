// A PostgreSQL database of a test's own: created on the server of `CEREBRO_TEST_DATABASE_URL` (the machines' local
// server by default) under a random name, dropped afterwards, so tests of several worktrees never meet.
import { randomBytes } from 'node:crypto';
import { createPgPool, type Pool } from '../pg-driver.js';

import { TEST_SERVER_URL } from '../../../test-kit/scratch-backend.js';

export { TEST_SERVER_URL };

/**
 * Null when the test server answers; otherwise why the tests that need it are skipped (CI machines run one: there a
 * skip means the server is down, which the message says).
 */
export async function pgUnavailable(): Promise<string | null> {
  let pool: Pool | undefined;
  try {
    pool = await createPgPool(TEST_SERVER_URL, { max: 1, connectionTimeoutMillis: 2_000 });
    await pool.query('SELECT 1');
    return null;
  } catch (err) {
    return `PostgreSQL no responde en ${new URL(TEST_SERVER_URL).host} (${(err as Error).message}): pruebas de PostgreSQL omitidas`;
  } finally {
    await pool?.end().catch(() => undefined);
  }
}

export interface TestDatabase {
  /** The database's name on the test server. */
  name: string;
  url: string;
  pool: Pool;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** Creates a database with a random name and a pool on it: empty, or a copy of `template` (which nobody may be using). */
export async function createTestDatabase(poolSize = 10, template?: string): Promise<TestDatabase> {
  const name = `cerebro_t_${randomBytes(6).toString('hex')}`;
  // C collation: text compares by code point, as SQLite's BINARY does (a copy keeps its template's).
  await onServer(
    template
      ? `CREATE DATABASE ${name} TEMPLATE ${template}`
      : `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
  );
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  const pool = await createPgPool(url.toString(), { max: poolSize });
  return {
    name,
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      await dropTestDatabase(name);
    },
  };
}

/** Drops a test database, closing whatever connections it still has. */
export function dropTestDatabase(name: string): Promise<void> {
  return onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** One statement on the server's maintenance database. */
async function onServer(sql: string): Promise<void> {
  const admin = await createPgPool(TEST_SERVER_URL, { max: 1 });
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

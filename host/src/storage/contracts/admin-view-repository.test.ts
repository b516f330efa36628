import 'reflect-metadata';
import type { AdminViewFixture } from '../port/admin-view-repository.contract.js';
import { adminViewRepositoryContract } from '../port/admin-view-repository.contract.js';
import { PgAdminViewRepository } from '../postgres/pg-admin-view-repository.js';
import { SqliteAdminViewRepository } from '../sqlite/admin-view-repository.js';
import { migratedSqliteFile } from '../sqlite/migrated-sqlite-file.js';
import { onEachBackend } from './each-backend.js';

/** Runs one write with `?` parameters on the backend under test. */
type Exec = (sql: string, params: unknown[]) => Promise<unknown>;

/** The directory writes the listings read, the same statements on both backends. */
function writes(exec: Exec): Omit<AdminViewFixture, 'repo' | 'close'> {
  return {
    async addOwner(id, createdAt, credits) {
      await exec('INSERT INTO owners (id, name, created_at) VALUES (?, ?, ?)', [id, `Propietario ${id}`, createdAt]);
      const account = `cta_${id}`;
      await exec('INSERT INTO accounts (id, owner_id, credits, created_at) VALUES (?, ?, ?, ?)', [
        account,
        id,
        credits,
        createdAt,
      ]);
      return account;
    },
    async deleteOwner(id) {
      await exec('UPDATE owners SET deleted_at = ? WHERE id = ?', [new Date().toISOString(), id]);
    },
    async addSpace(id, ownerId, accountId, modules, createdAt) {
      await exec('INSERT INTO spaces (id, name, owner_id, account_id, created_at) VALUES (?, ?, ?, ?, ?)', [
        id,
        id,
        ownerId,
        accountId,
        createdAt,
      ]);
      for (const m of modules)
        await exec('INSERT INTO space_modules (space_id, module, enabled_at) VALUES (?, ?, ?)', [id, m, createdAt]);
    },
    async addKey(id, ownerId, spaces, createdAt, revoked) {
      await exec(
        `INSERT INTO api_keys (id, owner_id, name, spaces, permission, secret_digest, created_at, revoked_at)
         VALUES (?, ?, ?, ?, 'lee', ?, ?, ?)`,
        [id, ownerId, `clave ${id}`, JSON.stringify(spaces), Buffer.from([0]), createdAt, revoked ? createdAt : null],
      );
    },
  };
}

await onEachBackend(adminViewRepositoryContract, {
  async sqlite() {
    const { db, close } = migratedSqliteFile();
    const exec: Exec = async (sql, params) => db.prepare(sql).run(...params);
    return { repo: new SqliteAdminViewRepository(db), ...writes(exec), close };
  },
  async postgres({ pool }) {
    const exec: Exec = (sql, params) => {
      let n = 0;
      return pool.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
    };
    return { repo: new PgAdminViewRepository(pool), ...writes(exec), close: async () => undefined };
  },
});

import 'reflect-metadata';
import { adminViewRepositoryContract } from '../port/admin-view-repository.contract.js';
import { SqliteAdminViewRepository } from './admin-view-repository.js';
import { migratedSqliteFile } from './migrated-sqlite-file.js';

adminViewRepositoryContract('SQLite', async () => {
  const { db, close } = migratedSqliteFile();
  return {
    repo: new SqliteAdminViewRepository(db),
    async addOwner(id, createdAt, credits) {
      db.prepare('INSERT INTO owners (id, name, created_at) VALUES (?, ?, ?)').run(id, `Propietario ${id}`, createdAt);
      const account = `cta_${id}`;
      db.prepare('INSERT INTO accounts (id, owner_id, credits, created_at) VALUES (?, ?, ?, ?)').run(
        account,
        id,
        credits,
        createdAt,
      );
      return account;
    },
    async deleteOwner(id) {
      db.prepare('UPDATE owners SET deleted_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    },
    async addSpace(id, ownerId, accountId, modules, createdAt) {
      db.prepare('INSERT INTO spaces (id, name, owner_id, account_id, created_at) VALUES (?, ?, ?, ?, ?)').run(
        id,
        id,
        ownerId,
        accountId,
        createdAt,
      );
      for (const m of modules)
        db.prepare('INSERT INTO space_modules (space_id, module, enabled_at) VALUES (?, ?, ?)').run(id, m, createdAt);
    },
    async addKey(id, ownerId, spaces, createdAt, revoked) {
      db.prepare(
        `INSERT INTO api_keys (id, owner_id, name, spaces, permission, secret_digest, created_at, revoked_at)
         VALUES (?, ?, ?, ?, 'lee', x'00', ?, ?)`,
      ).run(id, ownerId, `clave ${id}`, JSON.stringify(spaces), createdAt, revoked ? createdAt : null);
    },
    close,
  };
});

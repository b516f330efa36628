import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type SqliteDatabase } from '../database.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from '../migrations/index.js';
import type { AccessFixture } from '../port/access-fixture.js';

const CREATED = '2026-01-01T00:00:00.000Z';

/** A migrated host database in a file of its own (WAL, as in production), removed by `close`. */
export function openMigratedTestDatabase(): { db: SqliteDatabase; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-repo-'));
  const db = openDatabase(join(dir, 'cerebro.db'));
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  return {
    db,
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The contract tests' fixture on SQLite: plain inserts into the directory's tables. */
export function sqliteAccessFixture(db: SqliteDatabase): AccessFixture {
  return {
    async owner(o) {
      db.prepare(
        'INSERT INTO owners (id, name, email, read_only, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(o.id, o.name ?? o.id, o.email ?? null, o.readOnly ? 1 : 0, CREATED, o.deletedAt ?? null);
    },
    async account(a) {
      db.prepare('INSERT INTO accounts (id, owner_id, credits, created_at) VALUES (?, ?, ?, ?)').run(
        a.id,
        a.ownerId,
        a.credits ?? 0,
        CREATED,
      );
    },
    async space(s) {
      db.prepare(
        'INSERT INTO spaces (id, name, owner_id, account_id, trial_ends_at, api_enabled, api_settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        s.id,
        s.id,
        s.ownerId,
        s.accountId,
        s.trialEndsAt ?? null,
        s.apiEnabled === false ? 0 : 1,
        s.apiSettings ?? '{}',
        CREATED,
      );
      const module = db.prepare('INSERT INTO space_modules (space_id, module, enabled_at) VALUES (?, ?, ?)');
      for (const m of s.modules ?? []) module.run(s.id, m, CREATED);
    },
    async operator(c) {
      db.prepare(
        'INSERT INTO operator_credentials (id, name, secret_digest, created_at, revoked_at) VALUES (?, ?, ?, ?, ?)',
      ).run(c.id, c.id, c.digest, CREATED, c.revokedAt ?? null);
    },
  };
}

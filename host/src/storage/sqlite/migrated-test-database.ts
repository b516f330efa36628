import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type SqliteDatabase } from '../database.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from '../migrations/index.js';

/** A fresh SQLite file with every host migration applied, for the repositories' contract tests. */
export async function migratedTestDatabase(): Promise<{ db: SqliteDatabase; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-repo-'));
  const db = openDatabase(join(dir, 'cerebro.db'));
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  return {
    db,
    close: async () => {
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

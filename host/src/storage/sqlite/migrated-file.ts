import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type SqliteDatabase } from '../database.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from '../migrations/index.js';

/**
 * A migrated host database file and a second connection to it (another process's view), for the repositories'
 * contract tests. `close` closes both and deletes the file.
 */
export async function migratedDatabaseFile(): Promise<{
  db: SqliteDatabase;
  second: SqliteDatabase;
  close(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-port-'));
  const file = join(dir, 'cerebro.db');
  const db = openDatabase(file);
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  const second = openDatabase(file);
  return {
    db,
    second,
    async close() {
      db.close();
      second.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

import { join } from 'node:path';
import { backupDatabases, type BackupResult } from './backup.js';
import type { SqliteDatabase } from './database.js';
import { applyMigrations, verifyMigrations, type MigrationSet } from './migrator.js';

export interface HostMigration {
  applied: string[];
  /** The automatic backup taken before migrating a database that already had data, if any. */
  backup?: BackupResult;
}

/** Where automatic backups go: `<data>/respaldos/antes-de-migrar-<UTC time>`. */
export const automaticBackupDir = (dataDir: string, now: Date): string =>
  join(dataDir, 'respaldos', `antes-de-migrar-${now.toISOString().replace(/[:.]/g, '-')}`);

/**
 * Applies the host's pending migrations, first backing up every database of the data folder when the database
 * already holds migrated data: an upgrade that goes wrong can then be undone by restoring that folder. A new,
 * empty database needs no backup.
 */
export async function migrateHostDatabase(
  db: SqliteDatabase,
  dataDir: string,
  set: MigrationSet,
  now: () => Date = () => new Date(),
): Promise<HostMigration> {
  const pending = verifyMigrations(db, set);
  const hasData = (db.prepare('SELECT count(*) AS n FROM cerebro_migrations').get() as { n: number }).n > 0;
  const backup =
    pending.length > 0 && hasData ? await backupDatabases(dataDir, automaticBackupDir(dataDir, now())) : undefined;
  return { applied: applyMigrations(db, set, now), backup };
}

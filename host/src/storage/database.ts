import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** The better-sqlite3 connection type, named once so declarations can refer to it. */
export interface SqliteDatabase extends Database.Database {}

/**
 * Opens the service database with the settings every connection needs: WAL so readers never wait for the writer,
 * foreign keys enforced, a busy timeout instead of immediate SQLITE_BUSY, and NORMAL sync (safe with WAL:
 * a power loss may drop the last transactions but never corrupts the file).
 */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}

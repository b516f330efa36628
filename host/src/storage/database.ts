import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

/** The better-sqlite3 connection type, named once so declarations can refer to it. */
export interface SqliteDatabase extends Database.Database {}

/**
 * Opens the service database with the settings every connection needs: WAL so readers never wait for the writer,
 * foreign keys enforced, a busy timeout instead of immediate SQLITE_BUSY, and NORMAL sync (safe with WAL:
 * a power loss may drop the last transactions but never corrupts the file). The write-ahead log is cut back to
 * 4 MiB when it starts over after a checkpoint: without the limit it keeps the size of its largest burst (an
 * indexing run can grow it by tens of MB) and a disk that was full stays short of space after it was freed.
 */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return db;
}

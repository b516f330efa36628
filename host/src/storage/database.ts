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
  enterWal(db);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return db;
}

/** How long opening waits for another process to let go of a new file (the busy timeout's span). */
const WAL_SWITCH_WAIT_MS = 5000;
const WAL_SWITCH_RETRY_MS = 20;

/**
 * Puts the file in WAL mode. Switching a new file (still in rollback mode) needs it alone for an instant, and SQLite
 * answers SQLITE_BUSY at once rather than calling the busy handler when another connection holds it: two processes
 * starting on a new data folder together would see one fail with "database is locked". So the switch is retried,
 * briefly and synchronously (it only happens while opening), for as long as the busy timeout would wait.
 */
function enterWal(db: SqliteDatabase): void {
  const deadline = Date.now() + WAL_SWITCH_WAIT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if (!(err as { code?: string }).code?.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAL_SWITCH_RETRY_MS);
    }
  }
}

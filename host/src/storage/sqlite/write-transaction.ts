import type { SqliteDatabase } from '../database.js';

/**
 * Runs asynchronous `work` as one SQLite transaction on `db`, holding the write lock from the start (IMMEDIATE: a
 * second process sharing the file waits for it, then sees its result). The repositories `work` calls write on the
 * same connection, their own transactions becoming savepoints of this one: all of it is committed, or none (an
 * error rolls it back; a process killed before the commit leaves nothing, SQLite drops the uncommitted frames).
 * Whatever else this process writes meanwhile joins it too, so it is for short work where nothing else writes yet:
 * the first start's setup.
 */
export async function inWriteTransaction<T>(db: SqliteDatabase, work: () => Promise<T>): Promise<T> {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = await work();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    // Some errors (disk full, a failed COMMIT) already ended the transaction; rolling back again would throw.
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

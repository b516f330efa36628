// Tests that by design look at SQLite's files (cerebro.db, a plugin's .db, WAL files, backups of those files) have
// nothing to look at when the suite runs on PostgreSQL + Redis (CEREBRO_TEST_BACKEND=postgres): they skip there, with
// the reason, through this one helper, so a run's skip list says what PostgreSQL leaves uncovered.
import { testBackend } from '@cerebro/host/test-kit';

/** Whether this run's hosts are on PostgreSQL + Redis. */
export const onPostgres = testBackend() === 'postgres';

/** node:test options: skipped with `reason` when the hosts run on PostgreSQL, run otherwise. */
export function sqliteOnly(reason: string): { skip: string | false } {
  return { skip: onPostgres ? `solo SQLite: ${reason}` : false };
}

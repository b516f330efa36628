// Request windows counted in PostgreSQL, when no Redis is configured: the SQLite shared statements
// (limits/limit-windows.ts, SqliteLimitWindows) as PostgreSQL upserts, one atomic statement per request.
import type { SharedLimitWindows } from '../shared/shared-counters.js';
import type { Pool } from './pg-driver.js';

/** Counts one call in a window row unless it reached the limit; returns the new count, or no row at the limit. */
const countUpsert = (table: string, window: string): string =>
  `INSERT INTO ${table} (space_id, ${window}, calls) VALUES ($1, $2, 1)
   ON CONFLICT (space_id, ${window}) DO UPDATE SET calls = ${table}.calls + 1 WHERE ${table}.calls < $3
   RETURNING calls`;

const MINUTE_SQL = countUpsert('rate_windows', 'minute');
const DAY_SQL = countUpsert('daily_usage', 'day');

export class PgLimitWindows implements SharedLimitWindows {
  readonly daysStored = true;

  constructor(private readonly pool: Pool) {}

  private async take(sql: string, space: string, window: number | string, limit: number): Promise<number | null> {
    if (limit <= 0) return null;
    const r = await this.pool.query<{ calls: number }>(sql, [space, window, limit]);
    return r.rows[0]?.calls ?? null;
  }

  takeMinute(space: string, minute: number, limit: number): Promise<number | null> {
    return this.take(MINUTE_SQL, space, minute, limit);
  }

  takeDay(space: string, day: string, quota: number): Promise<number | null> {
    return this.take(DAY_SQL, space, day, quota);
  }

  async forgetBefore(minute: number): Promise<void> {
    await this.pool.query('DELETE FROM rate_windows WHERE minute < $1', [minute]);
  }
}

import type { SqliteDatabase } from '../storage/database.js';

/**
 * Fixed request windows of spaces counted in the shared database, so every process sharing it sees the same count:
 * one atomic upsert per request that only counts while the window is below its limit, and returns the new count.
 */
export interface LimitWindows {
  /** Counts one request of `space` in the minute `minute` (ms since the epoch / 60,000); null when `limit` is reached. */
  takeMinute(space: string, minute: number, limit: number): number | null;
  /** Counts one request of `space` on the UTC day `day` (YYYY-MM-DD); null when `quota` is reached. */
  takeDay(space: string, day: string, quota: number): number | null;
  /** Forgets minute windows older than `minute`. */
  forgetBefore(minute: number): void;
}

export class SqliteLimitWindows implements LimitWindows {
  private readonly stmts;

  constructor(db: SqliteDatabase) {
    this.stmts = {
      minute: db
        .prepare<[string, number, number], number>(
          `INSERT INTO rate_windows (space_id, minute, calls) VALUES (?, ?, 1)
             ON CONFLICT (space_id, minute) DO UPDATE SET calls = calls + 1 WHERE calls < ? RETURNING calls`,
        )
        .pluck(),
      day: db
        .prepare<[string, string, number], number>(
          `INSERT INTO daily_usage (space_id, day, calls) VALUES (?, ?, 1)
             ON CONFLICT (space_id, day) DO UPDATE SET calls = calls + 1 WHERE calls < ? RETURNING calls`,
        )
        .pluck(),
      forget: db.prepare<[number]>('DELETE FROM rate_windows WHERE minute < ?'),
    };
  }

  takeMinute(space: string, minute: number, limit: number): number | null {
    if (limit <= 0) return null;
    return this.stmts.minute.get(space, minute, limit) ?? null;
  }

  takeDay(space: string, day: string, quota: number): number | null {
    if (quota <= 0) return null;
    return this.stmts.day.get(space, day, quota) ?? null;
  }

  forgetBefore(minute: number): void {
    this.stmts.forget.run(minute);
  }
}

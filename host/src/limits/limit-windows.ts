import type { SqliteDatabase } from '../storage/database.js';

/**
 * Fixed request windows of spaces (the clock minute, the UTC day): each call counts one request if the window is
 * below its limit and returns the new count, or null when the limit is reached.
 */
export interface LimitWindows {
  /** Counts one request of `space` in the minute `minute` (ms since the epoch / 60,000); null when `limit` is reached. */
  takeMinute(space: string, minute: number, limit: number): number | null;
  /** Counts one request of `space` on the UTC day `day` (YYYY-MM-DD); null when `quota` is reached. */
  takeDay(space: string, day: string, quota: number): number | null;
  /** Forgets minute windows older than `minute`. */
  forgetBefore(minute: number): void;
}

/**
 * Counted in the shared database, so every process sharing it sees the same count: one atomic upsert per request
 * (about 50 µs on these machines: a WAL commit), for processes that share the database (`--rol api|worker`).
 */
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

/**
 * Counted in this process's memory, for a process that is alone on its database (`--rol todo`, the default): no
 * write per request. A day's count starts from what is stored (`storedDay`, read once per space and day) and the
 * caller writes its calls at each flush; a restart forgives at most one minute.
 */
export class MemoryLimitWindows implements LimitWindows {
  private readonly minutes = new Map<string, { minute: number; calls: number }>();
  private readonly days = new Map<string, { day: string; calls: number }>();

  constructor(private readonly storedDay: (space: string, day: string) => number) {}

  takeMinute(space: string, minute: number, limit: number): number | null {
    let window = this.minutes.get(space);
    if (!window || window.minute !== minute) this.minutes.set(space, (window = { minute, calls: 0 }));
    if (window.calls >= limit) return null;
    return ++window.calls;
  }

  takeDay(space: string, day: string, quota: number): number | null {
    let window = this.days.get(space);
    if (!window || window.day !== day) this.days.set(space, (window = { day, calls: this.storedDay(space, day) }));
    if (window.calls >= quota) return null;
    return ++window.calls;
  }

  /** Counts a call of a space without a quota, so its day's count is right if a quota is set later today. */
  countDay(space: string, day: string): void {
    const window = this.days.get(space);
    if (window?.day === day) window.calls++;
  }

  forgetBefore(minute: number): void {
    for (const [space, window] of this.minutes) if (window.minute < minute) this.minutes.delete(space);
  }
}

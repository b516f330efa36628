import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { LimitWindowsRepository, WindowCalls, WindowHit } from '../port/limit-windows-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/**
 * Limit windows in the shared SQLite database: a hit is one conditional upsert (about 50 µs here, a WAL commit),
 * atomic because SQLite runs one writer at a time.
 */
@injectable()
export class SqliteLimitWindowsRepository implements LimitWindowsRepository {
  private readonly stmts;
  private readonly addAll;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      hit: () =>
        db
          .prepare<[string, number, number, number], number>(
            `INSERT INTO limit_windows (bucket, window_start, expires_at, calls) VALUES (?, ?, ?, 1)
             ON CONFLICT (bucket, window_start) DO UPDATE SET calls = calls + 1 WHERE calls < ? RETURNING calls`,
          )
          .pluck(),
      count: () =>
        db
          .prepare<[string, number], number>('SELECT calls FROM limit_windows WHERE bucket = ? AND window_start = ?')
          .pluck(),
      add: () =>
        db.prepare<[string, number, number, number]>(
          `INSERT INTO limit_windows (bucket, window_start, expires_at, calls) VALUES (?, ?, ?, ?)
           ON CONFLICT (bucket, window_start) DO UPDATE SET calls = calls + excluded.calls`,
        ),
      forget: () => db.prepare<[number]>('DELETE FROM limit_windows WHERE expires_at <= ?'),
    });
    this.addAll = db.transaction((entries: readonly WindowCalls[]) => {
      for (const e of entries) this.stmts.add.run(e.bucket, e.windowStart, e.windowStart + e.windowMs, e.calls);
    });
  }

  async hit(bucket: string, windowStart: number, windowMs: number, limit: number): Promise<WindowHit> {
    if (limit <= 0) return { count: 0, allowed: false };
    const count = this.stmts.hit.get(bucket, windowStart, windowStart + windowMs, limit);
    if (count !== undefined) return { count, allowed: true };
    return { count: this.stmts.count.get(bucket, windowStart) ?? limit, allowed: false };
  }

  async count(bucket: string, windowStart: number): Promise<number> {
    return this.stmts.count.get(bucket, windowStart) ?? 0;
  }

  async add(entries: readonly WindowCalls[]): Promise<void> {
    if (entries.length) this.addAll.immediate(entries);
  }

  async forgetExpired(now: number): Promise<void> {
    this.stmts.forget.run(now);
  }
}

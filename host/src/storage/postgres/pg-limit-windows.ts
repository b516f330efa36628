// Limit windows in PostgreSQL, when no Redis is configured: the SQLite repository's statements on `limit_windows`
// (storage/sqlite/limit-windows-repository.ts) as PostgreSQL statements; a hit is one conditional upsert, atomic
// under concurrent hosts (the row lock of ON CONFLICT DO UPDATE).
import type { LimitWindowsRepository, WindowCalls, WindowHit } from '../port/limit-windows-repository.js';
import type { Pool } from './pg-driver.js';

export class PgLimitWindows implements LimitWindowsRepository {
  constructor(private readonly pool: Pool) {}

  async hit(bucket: string, windowStart: number, windowMs: number, limit: number): Promise<WindowHit> {
    if (limit <= 0) return { count: 0, allowed: false };
    const r = await this.pool.query<{ calls: number }>(
      `INSERT INTO limit_windows (bucket, window_start, expires_at, calls) VALUES ($1, $2, $3, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET calls = limit_windows.calls + 1 WHERE limit_windows.calls < $4
       RETURNING calls`,
      [bucket, windowStart, windowStart + windowMs, limit],
    );
    if (r.rows[0]) return { count: r.rows[0].calls, allowed: true };
    return { count: (await this.count(bucket, windowStart)) || limit, allowed: false };
  }

  async count(bucket: string, windowStart: number): Promise<number> {
    const r = await this.pool.query<{ calls: number }>(
      'SELECT calls FROM limit_windows WHERE bucket = $1 AND window_start = $2',
      [bucket, windowStart],
    );
    return r.rows[0]?.calls ?? 0;
  }

  async add(entries: readonly WindowCalls[]): Promise<void> {
    if (entries.length === 0) return;
    // One statement: all or none. Entries of one window are summed first (ON CONFLICT touches a row once).
    await this.pool.query(
      `INSERT INTO limit_windows (bucket, window_start, expires_at, calls)
       SELECT bucket, window_start, max(expires_at), sum(calls)
         FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[]) AS e(bucket, window_start, expires_at, calls)
        GROUP BY bucket, window_start
       ON CONFLICT (bucket, window_start) DO UPDATE SET calls = limit_windows.calls + excluded.calls`,
      [
        entries.map((e) => e.bucket),
        entries.map((e) => e.windowStart),
        entries.map((e) => e.windowStart + e.windowMs),
        entries.map((e) => e.calls),
      ],
    );
  }

  async forgetExpired(now: number): Promise<void> {
    await this.pool.query('DELETE FROM limit_windows WHERE expires_at <= $1', [now]);
  }
}

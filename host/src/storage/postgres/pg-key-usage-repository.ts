// Key call counters on PostgreSQL: storage/sqlite/key-usage-repository.ts's additive statements, in one transaction.
import { inject, injectable } from 'tsyringe';
import type { KeyCallsDelta, KeyDayRouteCalls, KeyUsageRepository } from '../port/key-usage-repository.js';
import { inTransaction, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

@injectable()
export class PgKeyUsageRepository implements KeyUsageRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async addCalls(deltas: readonly KeyCallsDelta[]): Promise<void> {
    if (!deltas.length) return;
    // Rows are locked in one order (key, then day and route) by every host, so two flushes never deadlock.
    const ordered = [...deltas].sort((a, b) => byCodePoint(a.keyId, b.keyId));
    await inTransaction(this.pool, async (client) => {
      for (const delta of ordered) {
        const totals = new Map<string, number>();
        const rows: [string, string, number][] = [];
        for (const day of delta.days)
          for (const [route, n] of day.byRoute) {
            totals.set(route, (totals.get(route) ?? 0) + n);
            rows.push([day.day, route, n]);
          }
        rows.sort((a, b) => byCodePoint(a[0], b[0]) || byCodePoint(a[1], b[1]));
        for (const [day, route, n] of rows)
          await client.query(
            `INSERT INTO key_daily_usage (key_id, day, route, calls) VALUES ($1, $2, $3, $4)
               ON CONFLICT (key_id, day, route) DO UPDATE SET calls = key_daily_usage.calls + excluded.calls`,
            [delta.keyId, day, route, n],
          );
        // Additive in one statement per key, every value computed from the row being updated (re-read after a
        // concurrent flush's commit): hosts flushing the same key at once each add their own counts, and the latest
        // last use wins (ISO times compared by code point, as SQLite's max does).
        await client.query(
          `UPDATE api_keys SET calls = calls + $2,
             last_used_at = greatest(coalesce(last_used_at, $3) COLLATE "C", $3),
             calls_by_route = coalesce((SELECT jsonb_object_agg(k, coalesce((calls_by_route::jsonb ->> k)::bigint, 0)
                                                       + coalesce(($4::jsonb ->> k)::bigint, 0))
                  FROM jsonb_object_keys(calls_by_route::jsonb || $4::jsonb) AS k), '{}')::text
           WHERE id = $1`,
          [delta.keyId, delta.calls, delta.lastUsedAt, JSON.stringify(Object.fromEntries(totals))],
        );
      }
    });
  }

  async daysFrom(keyId: string, fromDay: string): Promise<KeyDayRouteCalls[]> {
    const r = await this.pool.query<KeyDayRouteCalls>(
      `SELECT day, route, calls FROM key_daily_usage WHERE key_id = $1 AND day >= $2 COLLATE "C"
        ORDER BY day COLLATE "C", route COLLATE "C"`,
      [keyId, fromDay],
    );
    return r.rows;
  }
}

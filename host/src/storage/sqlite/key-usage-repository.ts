import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { KeyCallsDelta, KeyDayRouteCalls, KeyUsageRepository } from '../port/key-usage-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** The stored call counters of keys: columns of `api_keys` and the rows of `key_daily_usage`. */
@injectable()
export class SqliteKeyUsageRepository implements KeyUsageRepository {
  private readonly stmts;
  private readonly addAll;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      // Additive in one statement (no read-modify-write across statements): processes flushing the same key at
      // once each add their own counts. last_used_at keeps the latest of the times written.
      keyAdd: () =>
        db.prepare<[number, string, string, string]>(
          'UPDATE api_keys SET calls = calls + ?, last_used_at = max(coalesce(last_used_at, ?), ?) WHERE id = ?',
        ),
      keyRouteAdd: () =>
        db.prepare<[string, string, number, string]>(
          `UPDATE api_keys SET calls_by_route = json_set(calls_by_route, ?, coalesce(json_extract(calls_by_route, ?), 0) + CAST(? AS INTEGER))
           WHERE id = ?`,
        ),
      keyDayAdd: () =>
        db.prepare<[string, string, string, number]>(
          'INSERT INTO key_daily_usage (key_id, day, route, calls) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, day, route) DO UPDATE SET calls = calls + excluded.calls',
        ),
      daysFrom: () =>
        db.prepare<[string, string], KeyDayRouteCalls>(
          'SELECT day, route, calls FROM key_daily_usage WHERE key_id = ? AND day >= ? ORDER BY day, route',
        ),
    });
    this.addAll = db.transaction((deltas: readonly KeyCallsDelta[]) => {
      for (const delta of deltas) {
        const totals = new Map<string, number>();
        for (const day of delta.days) {
          for (const [route, n] of day.byRoute) {
            totals.set(route, (totals.get(route) ?? 0) + n);
            this.stmts.keyDayAdd.run(delta.keyId, day.day, route, n);
          }
        }
        for (const [route, n] of totals) {
          const path = `$."${route.replaceAll('"', '\\"')}"`;
          this.stmts.keyRouteAdd.run(path, path, n, delta.keyId);
        }
        this.stmts.keyAdd.run(delta.calls, delta.lastUsedAt, delta.lastUsedAt, delta.keyId);
      }
    });
  }

  async addCalls(deltas: readonly KeyCallsDelta[]): Promise<void> {
    if (deltas.length) this.addAll.immediate(deltas);
  }

  async daysFrom(keyId: string, fromDay: string): Promise<KeyDayRouteCalls[]> {
    return this.stmts.daysFrom.all(keyId, fromDay);
  }
}

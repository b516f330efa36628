import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import { apiError } from '@cerebro/sdk';
import type { SqliteDatabase } from '../storage/database.js';

interface KeyDelta { calls: number; byRoute: Map<string, number>; lastUsed: number }

export interface KeyUsage { llamadas: number; por_ruta: Record<string, number>; ultimo_uso: string | null }

const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);

/**
 * Call counters of keys (`llamadas`, `por_ruta`, `ultimo_uso`) and daily usage of spaces, kept in memory on the
 * hot path and written in one transaction every flush interval and at shutdown. A graceful restart loses nothing;
 * a crash loses at most the last interval. Reads merge the stored figures with what is still pending, so they are
 * exact at any moment.
 */
@injectable()
export class UsageCounters {
  private pendingKeys = new Map<string, KeyDelta>();
  /** Daily calls per space: stored value loaded once, plus everything counted since. */
  private daily = new Map<string, { day: string; calls: number; pending: number }>();
  private readonly stmts;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.stmts = {
      dailyGet: db.prepare<[string, string], { calls: number }>('SELECT calls FROM daily_usage WHERE space_id = ? AND day = ?'),
      dailyAdd: db.prepare('INSERT INTO daily_usage (space_id, day, calls) VALUES (?, ?, ?) ON CONFLICT (space_id, day) DO UPDATE SET calls = calls + excluded.calls'),
      keyGet: db.prepare<[string], { calls_by_route: string }>('SELECT calls_by_route FROM api_keys WHERE id = ?'),
      keyAdd: db.prepare('UPDATE api_keys SET calls = calls + ?, calls_by_route = ?, last_used_at = ? WHERE id = ?'),
    };
  }

  /** Counts one call of a key on a route pattern (e.g. `GET /companies`). */
  countKeyCall(keyId: string, route: string, now: number): void {
    let delta = this.pendingKeys.get(keyId);
    if (!delta) this.pendingKeys.set(keyId, (delta = { calls: 0, byRoute: new Map(), lastUsed: 0 }));
    delta.calls++;
    delta.byRoute.set(route, (delta.byRoute.get(route) ?? 0) + 1);
    delta.lastUsed = now; // formatted at flush time, off the hot path
  }

  /** Counts one call against the space's daily quota, or throws 429 when it is used up. */
  takeDaily(spaceId: string, quota: number | null, now: number): void {
    const day = utcDay(now);
    let entry = this.daily.get(spaceId);
    if (!entry || entry.day !== day) {
      entry = { day, calls: this.stmts.dailyGet.get(spaceId, day)?.calls ?? 0, pending: 0 };
      this.daily.set(spaceId, entry);
    }
    if (quota !== null && entry.calls >= quota) {
      const retry = Math.ceil((Date.parse(`${day}T00:00:00Z`) + 86_400_000 - now) / 1000);
      throw apiError('daily_quota_exceeded', `Se ha agotado la cuota diaria de ${quota} peticiones de este espacio; se renueva a las 00:00 UTC.`, { 'Retry-After': String(retry) });
    }
    entry.calls++;
    entry.pending++;
  }

  /** Stored figures of a key merged with what is pending. */
  keyUsage(keyId: string, stored: { calls: number; calls_by_route: string; last_used_at: string | null }): KeyUsage {
    const byRoute = JSON.parse(stored.calls_by_route) as Record<string, number>;
    const delta = this.pendingKeys.get(keyId);
    if (!delta) return { llamadas: stored.calls, por_ruta: byRoute, ultimo_uso: stored.last_used_at };
    for (const [route, n] of delta.byRoute) byRoute[route] = (byRoute[route] ?? 0) + n;
    return { llamadas: stored.calls + delta.calls, por_ruta: byRoute, ultimo_uso: new Date(delta.lastUsed).toISOString() };
  }

  /** Writes everything pending in one transaction. */
  flush(): void {
    if (this.pendingKeys.size === 0 && ![...this.daily.values()].some((e) => e.pending > 0)) return;
    const keys = this.pendingKeys;
    this.pendingKeys = new Map();
    this.db.transaction(() => {
      for (const [keyId, delta] of keys) {
        const current = this.stmts.keyGet.get(keyId);
        if (!current) continue;
        const byRoute = JSON.parse(current.calls_by_route) as Record<string, number>;
        for (const [route, n] of delta.byRoute) byRoute[route] = (byRoute[route] ?? 0) + n;
        this.stmts.keyAdd.run(delta.calls, JSON.stringify(byRoute), new Date(delta.lastUsed).toISOString(), keyId);
      }
      for (const [spaceId, entry] of this.daily) {
        if (entry.pending === 0) continue;
        this.stmts.dailyAdd.run(spaceId, entry.day, entry.pending);
        entry.pending = 0;
      }
    })();
  }
}

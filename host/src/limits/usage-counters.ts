import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import { apiError } from '@cerebro/sdk';
import type { SqliteDatabase } from '../storage/database.js';
import type { KeyDay, KeyUsage, UsageCounters } from './limit-services.js';
import type { HostConfig } from '../config/host-config.js';
import { MemoryLimitWindows, SqliteLimitWindows } from './limit-windows.js';

/**
 * A key's calls since the last flush. `byRoute` counts the current UTC day (`day`, ending at `dayEnd`); a call after
 * midnight moves it to `earlier` first, so the per-day figures stay exact across a flush interval that spans days.
 */
interface KeyDelta {
  calls: number;
  byRoute: Map<string, number>;
  lastUsed: number;
  day: string;
  dayEnd: number;
  earlier: { day: string; byRoute: Map<string, number> }[] | null;
}

const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;
const nextMidnight = (now: number): number => Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;

/** A space's calls on a day not yet written (spaces without a daily quota). */
type DailyEntry = { day: string; pending: number };

/**
 * Call counters of keys (`llamadas`, `por_ruta`, `ultimo_uso`) and daily usage of spaces, kept in memory on the
 * hot path and written in one transaction every flush interval and at shutdown. A graceful restart loses nothing;
 * a crash loses at most the last interval. Reads merge the stored figures with what is still pending, so they are
 * exact at any moment.
 */
@injectable()
export class BatchedUsageCounters implements UsageCounters {
  private pendingKeys = new Map<string, KeyDelta>();
  /** Daily calls of spaces without a quota not yet written, for the current day. */
  private daily = new Map<string, DailyEntry>();
  /** Pending calls of a day that ended before the flush. */
  private earlierDays: [string, DailyEntry][] | null = null;
  /** The daily quota's windows: in the shared database, or in memory for a process alone on it (`--rol todo`). */
  private readonly windows: SqliteLimitWindows | MemoryLimitWindows;
  private readonly stmts;

  constructor(
    @inject(HostTokens.Database) private readonly db: SqliteDatabase,
    @inject(HostTokens.Config) config: HostConfig,
  ) {
    this.windows =
      config.role === 'todo'
        ? new MemoryLimitWindows((space, day) => this.stmts.dailyGet.get(space, day) ?? 0)
        : new SqliteLimitWindows(db);
    this.stmts = {
      dailyGet: db
        .prepare<[string, string], number>('SELECT calls FROM daily_usage WHERE space_id = ? AND day = ?')
        .pluck(),
      dailyAdd: db.prepare(
        'INSERT INTO daily_usage (space_id, day, calls) VALUES (?, ?, ?) ON CONFLICT (space_id, day) DO UPDATE SET calls = calls + excluded.calls',
      ),
      // Additive in one statement (no read-modify-write across statements): processes flushing the same key at
      // once each add their own counts. last_used_at keeps the latest of the times written.
      keyAdd: db.prepare<[number, string, string, string]>(
        'UPDATE api_keys SET calls = calls + ?, last_used_at = max(coalesce(last_used_at, ?), ?) WHERE id = ?',
      ),
      keyRouteAdd: db.prepare<[string, string, number, string]>(
        `UPDATE api_keys SET calls_by_route = json_set(calls_by_route, ?, coalesce(json_extract(calls_by_route, ?), 0) + CAST(? AS INTEGER))
           WHERE id = ?`,
      ),
      keyDayAdd: db.prepare(
        'INSERT INTO key_daily_usage (key_id, day, route, calls) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, day, route) DO UPDATE SET calls = calls + excluded.calls',
      ),
      keyDays: db.prepare<[string, string], { day: string; route: string; calls: number }>(
        'SELECT day, route, calls FROM key_daily_usage WHERE key_id = ? AND day >= ? ORDER BY day',
      ),
    };
  }

  /** Counts one call of a key on a route pattern (e.g. `GET /companies`). */
  countKeyCall(keyId: string, route: string, now: number): void {
    let delta = this.pendingKeys.get(keyId);
    if (!delta)
      this.pendingKeys.set(
        keyId,
        (delta = {
          calls: 0,
          byRoute: new Map(),
          lastUsed: 0,
          day: utcDay(now),
          dayEnd: nextMidnight(now),
          earlier: null,
        }),
      );
    else if (now >= delta.dayEnd) {
      (delta.earlier ??= []).push({ day: delta.day, byRoute: delta.byRoute });
      delta.byRoute = new Map();
      delta.day = utcDay(now);
      delta.dayEnd = nextMidnight(now);
    }
    delta.calls++;
    delta.byRoute.set(route, (delta.byRoute.get(route) ?? 0) + 1);
    delta.lastUsed = now; // formatted at flush time, off the hot path
  }

  /**
   * Counts one call against the space's daily quota, or throws 429 when it is used up. Processes sharing the
   * database count a space with a quota there at once (one atomic upsert), so together they never let through more
   * than the quota; a process alone on it counts in memory from the stored figure. Every other call is counted in
   * memory and written at the next flush.
   */
  takeDaily(spaceId: string, quota: number | null, now: number): void {
    const day = utcDay(now);
    if (quota !== null) {
      if (this.windows.takeDay(spaceId, day, quota) === null) {
        const retry = Math.ceil((Date.parse(`${day}T00:00:00Z`) + 86_400_000 - now) / 1000);
        throw apiError(
          'daily_quota_exceeded',
          `Se ha agotado la cuota diaria de ${quota} peticiones de este espacio; se renueva a las 00:00 UTC.`,
          { 'Retry-After': String(retry) },
        );
      }
      if (this.windows instanceof SqliteLimitWindows) return; // already written
    } else if (this.windows instanceof MemoryLimitWindows) this.windows.countDay(spaceId, day);
    let entry = this.daily.get(spaceId);
    if (!entry || entry.day !== day) {
      if (entry?.pending) (this.earlierDays ??= []).push([spaceId, entry]);
      entry = { day, pending: 0 };
      this.daily.set(spaceId, entry);
    }
    entry.pending++;
  }

  /** Stored figures of a key merged with what is pending. */
  keyUsage(keyId: string, stored: { calls: number; calls_by_route: string; last_used_at: string | null }): KeyUsage {
    const byRoute = JSON.parse(stored.calls_by_route) as Record<string, number>;
    const delta = this.pendingKeys.get(keyId);
    if (!delta) return { llamadas: stored.calls, por_ruta: byRoute, ultimo_uso: stored.last_used_at };
    for (const day of daysOf(delta)) for (const [route, n] of day.byRoute) byRoute[route] = (byRoute[route] ?? 0) + n;
    return {
      llamadas: stored.calls + delta.calls,
      por_ruta: byRoute,
      ultimo_uso: new Date(delta.lastUsed).toISOString(),
    };
  }

  /**
   * A key's calls per UTC day over the last `days` days up to `now` (days without calls included, oldest first),
   * stored figures merged with what is pending.
   */
  keyDays(keyId: string, days: number, now: number): KeyDay[] {
    const result = new Map<string, KeyDay>();
    for (let i = days - 1; i >= 0; i--) {
      const dia = utcDay(now - i * DAY_MS);
      result.set(dia, { dia, llamadas: 0, por_ruta: {} });
    }
    const add = (day: string, route: string, calls: number) => {
      const entry = result.get(day);
      if (!entry) return;
      entry.llamadas += calls;
      entry.por_ruta[route] = (entry.por_ruta[route] ?? 0) + calls;
    };
    for (const row of this.stmts.keyDays.all(keyId, utcDay(now - (days - 1) * DAY_MS)))
      add(row.day, row.route, row.calls);
    const delta = this.pendingKeys.get(keyId);
    if (delta) for (const day of daysOf(delta)) for (const [route, n] of day.byRoute) add(day.day, route, n);
    return [...result.values()];
  }

  /**
   * Writes everything pending in one transaction. If it fails (a full disk, a busy database), nothing pending is
   * dropped: the counts stay in memory for the next flush, and the error goes to the caller.
   */
  flush(): void {
    if (this.pendingKeys.size === 0 && !this.earlierDays && ![...this.daily.values()].some((e) => e.pending > 0))
      return;
    const keys = this.pendingKeys;
    const written: [DailyEntry, number][] = [];
    const earlier = this.earlierDays ?? [];
    this.db
      .transaction(() => {
        for (const [keyId, delta] of keys) {
          const totals = new Map<string, number>();
          for (const day of daysOf(delta)) {
            for (const [route, n] of day.byRoute) {
              totals.set(route, (totals.get(route) ?? 0) + n);
              this.stmts.keyDayAdd.run(keyId, day.day, route, n);
            }
          }
          for (const [route, n] of totals) {
            const path = `$."${route.replaceAll('"', '\\"')}"`;
            this.stmts.keyRouteAdd.run(path, path, n, keyId);
          }
          const lastUsed = new Date(delta.lastUsed).toISOString();
          this.stmts.keyAdd.run(delta.calls, lastUsed, lastUsed, keyId);
        }
        for (const [spaceId, entry] of [...earlier, ...this.daily]) {
          if (entry.pending === 0) continue;
          this.stmts.dailyAdd.run(spaceId, entry.day, entry.pending);
          written.push([entry, entry.pending]);
        }
      })
      .immediate();
    // Synchronous since the transaction began: nothing was counted in between.
    this.pendingKeys = new Map();
    this.earlierDays = null;
    for (const [entry, n] of written) entry.pending -= n;
  }
}

/** The days a pending delta covers: those closed at a midnight, then the current one. */
function daysOf(delta: KeyDelta): { day: string; byRoute: Map<string, number> }[] {
  return delta.earlier
    ? [...delta.earlier, { day: delta.day, byRoute: delta.byRoute }]
    : [{ day: delta.day, byRoute: delta.byRoute }];
}

import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import {
  type KeyCallsDelta,
  type KeyUsageRepository,
  KeyUsageRepositoryToken,
} from '../storage/port/key-usage-repository.js';
import type { KeyDay, KeyUsage, RateLimiter, UsageCounters } from './limit-services.js';

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

/**
 * Call counters of keys (`llamadas`, `por_ruta`, `ultimo_uso`, calls per day and route), kept in memory on the hot
 * path and written in one transaction every flush interval and at shutdown, with the day counts of the limiter.
 * A graceful restart loses nothing; a crash loses at most the last interval. Reads merge the stored figures with
 * what is still pending, so they are exact at any moment.
 */
@injectable()
export class BatchedUsageCounters implements UsageCounters {
  private pendingKeys = new Map<string, KeyDelta>();
  /** Flushes and exact reads take turns (see `exact`); the tail of the line. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    @inject(KeyUsageRepositoryToken) private readonly repo: KeyUsageRepository,
    @inject(HostTokens.RateLimiter) private readonly limiter: RateLimiter,
  ) {}

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

  /** Stored figures of a key merged with what is pending (the row read within `exact`). */
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
   * stored figures merged with what is pending (called within `exact`).
   */
  async keyDays(keyId: string, days: number, now: number): Promise<KeyDay[]> {
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
    for (const row of await this.repo.daysFrom(keyId, utcDay(now - (days - 1) * DAY_MS)))
      add(row.day, row.route, row.calls);
    // Read after the stored rows: a flush that ended meanwhile moved its counts there, not lost between the two.
    const delta = this.pendingKeys.get(keyId);
    if (delta) for (const day of daysOf(delta)) for (const [route, n] of day.byRoute) add(day.day, route, n);
    return [...result.values()];
  }

  /**
   * Writes everything pending: the keys' counts in one transaction, then the limiter's day counts. If a write fails
   * (a full disk, a busy database), nothing of it is dropped: the counts stay in memory for the next flush, and the
   * error goes to the caller.
   */
  flush(): Promise<void> {
    return this.inTurn(() => this.write());
  }

  exact<T>(read: () => Promise<T>): Promise<T> {
    return this.inTurn(read);
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work, work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    const keys = this.pendingKeys;
    if (keys.size > 0) {
      // Calls counted while the write runs go to a new batch; a failed batch is merged back into it.
      this.pendingKeys = new Map();
      const deltas: KeyCallsDelta[] = [...keys].map(([keyId, delta]) => ({
        keyId,
        calls: delta.calls,
        lastUsedAt: new Date(delta.lastUsed).toISOString(),
        days: daysOf(delta),
      }));
      try {
        await this.repo.addCalls(deltas);
      } catch (err) {
        this.restore(keys);
        throw err;
      }
    }
    await this.limiter.flush();
  }

  /** Puts a batch whose write failed back in front of what was counted meanwhile. */
  private restore(batch: Map<string, KeyDelta>): void {
    for (const [keyId, failed] of batch) {
      const newer = this.pendingKeys.get(keyId);
      if (!newer) {
        this.pendingKeys.set(keyId, failed);
        continue;
      }
      newer.calls += failed.calls;
      newer.lastUsed = Math.max(newer.lastUsed, failed.lastUsed);
      newer.earlier = [...daysOf(failed), ...(newer.earlier ?? [])];
    }
  }
}

/** The days a pending delta covers: those closed at a midnight, then the current one. */
function daysOf(delta: KeyDelta): { day: string; byRoute: Map<string, number> }[] {
  return delta.earlier
    ? [...delta.earlier, { day: delta.day, byRoute: delta.byRoute }]
    : [{ day: delta.day, byRoute: delta.byRoute }];
}

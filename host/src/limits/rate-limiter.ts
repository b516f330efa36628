import { inject, injectable } from 'tsyringe';
import { apiError } from '@cerebro/sdk';
import type { AddressCall, LimitedCall, RateLimiter } from './limit-services.js';
import { HostTokens } from '../kernel/tokens.js';
import type { HostConfig } from '../config/host-config.js';
import {
  type LimitWindowsRepository,
  LimitWindowsRepositoryToken,
  type WindowCalls,
  type WindowHit,
} from '../storage/port/limit-windows-repository.js';
import { DAY_MS, MINUTE_MS, MemoryWindowCounter, SharedWindowCounter, type WindowCounter } from './limit-windows.js';
import { PendingDayCalls } from './pending-day-calls.js';

type Scope = 'clave' | 'espacio' | 'direccion';

/** One limit that applies to a request, in the order they are counted. */
interface Check {
  scope: Scope;
  bucket: string;
  windowStart: number;
  windowMs: number;
  limit: number;
}

/** What a counted limit left: the figures of the `RateLimit-*` headers. */
interface Standing {
  check: Check;
  remaining: number;
  reset: number;
}

interface Buckets {
  minute: string;
  day: string;
}

const MAX_NAMED = 50_000;

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => value instanceof Promise;

/**
 * Per-minute limits and daily quotas of spaces and of keys, as fixed windows (the clock minute, the UTC day) of
 * named buckets (`clave:<id>:minuto`, `espacio:<id>:dia`, …). A request is counted against the key's limits first,
 * then the space's, minute before day; the first window that is full refuses it with 429, so a request refused by
 * its own key's limit never spends the space's. A key's limit never widens the space's: both are counted, and the
 * stricter one refuses.
 *
 * Processes that share the database (`--rol api|worker`, or any host on PostgreSQL) count limited windows in it (or in
 * Redis), so together they give a limit once, not once each; a process alone on its SQLite file (`--rol todo`)
 * counts in memory, without a write per request.
 * Every call is also counted in the day windows of its key and space, limited or not, written at each flush: a
 * quota set during the day starts from the day's real count.
 */
@injectable()
export class RequestWindowLimiter implements RateLimiter {
  private readonly windows: WindowCounter;
  private readonly pending = new PendingDayCalls();
  private lastForget = 0;
  private readonly keyBuckets = new Map<string, Buckets>();
  private readonly spaceBuckets = new Map<string, Buckets>();

  constructor(
    @inject(LimitWindowsRepositoryToken) private readonly repo: LimitWindowsRepository,
    @inject(HostTokens.Config) config: HostConfig,
  ) {
    // A `todo` process is alone only on its data folder's SQLite file: on PostgreSQL other hosts share the database.
    this.windows =
      config.role === 'todo' && !config.databaseUrl
        ? new MemoryWindowCounter(repo, (bucket, start) => this.pending.count(bucket, start))
        : new SharedWindowCounter(repo);
  }

  take(call: LimitedCall, headers: Record<string, string>): void | Promise<void> {
    const minute = Math.floor(call.now / MINUTE_MS) * MINUTE_MS;
    const day = Math.floor(call.now / DAY_MS) * DAY_MS;
    const key = this.bucketsOf('clave', call.keyId);
    const space = this.bucketsOf('espacio', call.spaceId);
    const checks: Check[] = [];
    const { perMinute: keyMinute, daily: keyDaily } = call.key;
    const spaceMinute = call.space?.perMinute ?? null;
    const spaceDaily = call.space?.daily ?? null;
    if (keyMinute !== null)
      checks.push({ scope: 'clave', bucket: key.minute, windowStart: minute, windowMs: MINUTE_MS, limit: keyMinute });
    if (spaceMinute !== null)
      checks.push({
        scope: 'espacio',
        bucket: space.minute,
        windowStart: minute,
        windowMs: MINUTE_MS,
        limit: spaceMinute,
      });
    if (keyDaily !== null)
      checks.push({ scope: 'clave', bucket: key.day, windowStart: day, windowMs: DAY_MS, limit: keyDaily });
    else this.countUnlimitedDay(key.day, day);
    if (spaceDaily !== null)
      checks.push({ scope: 'espacio', bucket: space.day, windowStart: day, windowMs: DAY_MS, limit: spaceDaily });
    else this.countUnlimitedDay(space.day, day);
    this.forgetOnce(minute);
    if (checks.length === 0) return;
    return this.run(checks, 0, [], call.now, headers);
  }

  takeAddress(call: AddressCall, headers: Record<string, string>): void | Promise<void> {
    const minute = Math.floor(call.now / MINUTE_MS) * MINUTE_MS;
    this.forgetOnce(minute);
    // Built per request (not memoised like keys' and spaces'): addresses are unbounded and mostly seen once.
    const bucket = `direccion:${call.ip}:${call.route}:minuto`;
    const check: Check = {
      scope: 'direccion',
      bucket,
      windowStart: minute,
      windowMs: MINUTE_MS,
      limit: call.perMinute,
    };
    return this.run([check], 0, [], call.now, headers);
  }

  /** Once a minute per process: windows that ended are never read again. */
  private forgetOnce(minute: number): void {
    if (minute <= this.lastForget) return;
    this.lastForget = minute;
    this.windows.forgetExpired(minute).catch(() => {
      // Only housekeeping: the next minute tries again.
    });
  }

  /** Writes the day counts still in memory (one transaction); on failure they stay for the next flush. */
  async flush(): Promise<void> {
    const batch: WindowCalls[] = this.pending.drain();
    if (batch.length === 0) return;
    try {
      await this.repo.add(batch);
    } catch (err) {
      this.pending.restore(batch);
      throw err;
    }
  }

  /** Counts checks from `i` on, synchronously while the counter answers so, awaiting only when it must. */
  private run(
    checks: Check[],
    i: number,
    standings: Standing[],
    now: number,
    headers: Record<string, string>,
  ): void | Promise<void> {
    for (; i < checks.length; i++) {
      const check = checks[i]!;
      const hit = this.windows.hit(check.bucket, check.windowStart, check.windowMs, check.limit);
      if (isPromise(hit)) {
        const next = i + 1;
        return hit.then((h) => {
          this.settle(checks, check, h, standings, now, headers);
          return this.run(checks, next, standings, now, headers);
        });
      }
      this.settle(checks, check, hit, standings, now, headers);
    }
    writeHeaders(checks, standings, headers);
  }

  /** Records what a window left, or throws 429 when it was full (the headers still list every limit of `checks`). */
  private settle(
    checks: readonly Check[],
    check: Check,
    hit: WindowHit,
    standings: Standing[],
    now: number,
    headers: Record<string, string>,
  ) {
    const reset = Math.max(1, Math.ceil((check.windowStart + check.windowMs - now) / 1000));
    const standing = { check, remaining: hit.allowed ? Math.max(0, check.limit - hit.count) : 0, reset };
    standings.push(standing);
    if (hit.allowed) {
      if (check.windowMs === DAY_MS && !this.windows.storesHits) this.pending.add(check.bucket, check.windowStart);
      return;
    }
    writeHeaders(checks, standings, headers, standing);
    throw refusal(check, reset, { ...headers, 'Retry-After': String(reset) });
  }

  /** Bucket names built once per key or space: no string is built per request, and their hashes stay cached. */
  private bucketsOf(scope: 'clave' | 'espacio', id: string): Buckets {
    const names = scope === 'clave' ? this.keyBuckets : this.spaceBuckets;
    let buckets = names.get(id);
    if (!buckets) {
      if (names.size >= MAX_NAMED) names.clear(); // bounded: ids of deleted keys and spaces must not pile up
      buckets = { minute: `${scope}:${id}:minuto`, day: `${scope}:${id}:dia` };
      names.set(id, buckets);
    }
    return buckets;
  }

  private countUnlimitedDay(bucket: string, day: number): void {
    this.windows.note(bucket, day);
    this.pending.add(bucket, day);
  }
}

/**
 * The IETF draft's headers: `RateLimit-Limit`, `-Remaining` and `-Reset` of the limit closest to refusing (the one
 * that refused, on a 429), and `RateLimit-Policy` listing every limit that applied (`checks`), that one first, each
 * with `limite="clave"`, `"espacio"` or `"direccion"` (a visitor's address on a public route). On a 429 the limits
 * after the one that refused were not counted (`standings` stops there), yet they apply to the request all the same:
 * a client sees every limit it has to keep under, not only the first it hit.
 */
function writeHeaders(
  checks: readonly Check[],
  standings: Standing[],
  headers: Record<string, string>,
  refused?: Standing,
): void {
  let shown = refused;
  if (!shown) for (const s of standings) if (!shown || s.remaining < shown.remaining) shown = s;
  if (!shown) return;
  headers['RateLimit-Limit'] = String(shown.check.limit);
  headers['RateLimit-Remaining'] = String(shown.remaining);
  headers['RateLimit-Reset'] = String(shown.reset);
  const first = shown.check;
  const policy = (c: Check) => `${c.limit};w=${c.windowMs / 1000};limite="${c.scope}"`;
  headers['RateLimit-Policy'] = [first, ...checks.filter((c) => c !== first)].map(policy).join(', ');
}

function refusal(check: Check, reset: number, headers: Record<string, string>) {
  if (check.scope === 'direccion')
    return apiError(
      'rate_limited',
      `Demasiadas peticiones desde tu dirección: esta página admite ${check.limit} por minuto. Reintenta en ${reset} s.`,
      headers,
    );
  const who = check.scope === 'clave' ? 'esta clave' : 'este espacio';
  if (check.windowMs === MINUTE_MS)
    return apiError(
      'rate_limited',
      `Demasiadas peticiones: ${who} admite ${check.limit} por minuto. Reintenta en ${reset} s.`,
      headers,
    );
  return apiError(
    'daily_quota_exceeded',
    `Se ha agotado la cuota diaria de ${check.limit} peticiones de ${who}; se renueva a las 00:00 UTC.`,
    headers,
  );
}

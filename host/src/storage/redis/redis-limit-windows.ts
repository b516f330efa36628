// Limit windows counted in Redis: one script per request, atomic on the server, so hosts sharing it give a bucket
// its limit once; each window's key expires when the window ends. Nothing authoritative lives there: windows longer
// than a minute (daily quotas) are also recorded in the database (`durable`, written at `flush`, as the usage
// counters are), and a long window Redis no longer has starts again from the database's figure. So a Redis restart
// forgives at most the current minute and the calls not yet flushed.
import type { LimitWindowsRepository, WindowCalls, WindowHit } from '../port/limit-windows-repository.js';
import type { Redis } from './redis-driver.js';

/**
 * KEYS[1] the window; ARGV: limit, expiry (ms since the epoch), how a missing window starts: '' at 0, 'ask' not
 * known (answers {-1, 0}: the caller reads the database and calls again with the figure), or that figure.
 * Answers {1, count} when counted, {0, count} when the limit is reached.
 */
const HIT = `
local n = redis.call('GET', KEYS[1])
if not n then
  if ARGV[3] == 'ask' then return {-1, 0} end
  if redis.call('SET', KEYS[1], ARGV[3] == '' and '0' or ARGV[3], 'NX') then
    redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  end
  n = redis.call('GET', KEYS[1])
end
n = tonumber(n)
if n >= tonumber(ARGV[1]) then return {0, n} end
return {1, redis.call('INCR', KEYS[1])}`;

/** A window's key outlives the window's end a little: the clocks of hosts differ by a few seconds. */
const EXPIRY_GRACE_MS = 60_000;
/** Windows up to this long are Redis's alone (a restart may forgive them); longer ones are also in the database. */
const EPHEMERAL_WINDOW_MS = 60_000;

/** Where long windows are recorded for good (the PostgreSQL limit windows). */
export type DurableWindows = Pick<LimitWindowsRepository, 'count' | 'add'>;

export class RedisLimitWindows implements LimitWindowsRepository {
  /** Calls of long windows counted in Redis, not yet written to `durable`. */
  private pending = new Map<string, WindowCalls>();

  constructor(
    private readonly redis: Redis,
    /** Prefix of every key (`cerebro:` in service; tests use their own). */
    private readonly prefix: string,
    private readonly durable: DurableWindows,
  ) {}

  private key(bucket: string, windowStart: number): string {
    return `${this.prefix}ventana:${bucket}:${windowStart}`;
  }

  private async run(key: string, limit: number, expiresAt: number, start: string): Promise<[number, number]> {
    return (await this.redis.eval(HIT, 1, key, limit, expiresAt, start)) as [number, number];
  }

  async hit(bucket: string, windowStart: number, windowMs: number, limit: number): Promise<WindowHit> {
    if (limit <= 0) return { count: 0, allowed: false };
    const key = this.key(bucket, windowStart);
    // Never in the past (a host whose clock lags, a window asked about late): Redis would drop the key at once.
    const expiresAt = Math.max(windowStart + windowMs, Date.now()) + EXPIRY_GRACE_MS;
    const durable = windowMs > EPHEMERAL_WINDOW_MS;
    let [state, count] = await this.run(key, limit, expiresAt, durable ? 'ask' : '');
    if (state === -1) {
      // Several hosts may read the figure at once: SET NX keeps the first, and each then counts on it.
      const stored = await this.durable.count(bucket, windowStart);
      [state, count] = await this.run(key, limit, expiresAt, String(stored + this.pendingOf(bucket, windowStart)));
    }
    if (state === 1 && durable) this.note(bucket, windowStart, windowMs, 1);
    return { count, allowed: state === 1 };
  }

  async count(bucket: string, windowStart: number): Promise<number> {
    const n = await this.redis.get(this.key(bucket, windowStart));
    if (n !== null) return Number(n);
    return (await this.durable.count(bucket, windowStart)) + this.pendingOf(bucket, windowStart);
  }

  async add(entries: readonly WindowCalls[]): Promise<void> {
    if (entries.length === 0) return;
    const tx = this.redis.multi();
    for (const e of entries) {
      // Only a window Redis already has is raised: a missing one starts from the database, which gets these calls.
      tx.eval(
        "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end return 0",
        1,
        this.key(e.bucket, e.windowStart),
        e.calls,
      );
    }
    await tx.exec();
    const long = entries.filter((e) => e.windowMs > EPHEMERAL_WINDOW_MS);
    if (long.length) await this.durable.add(long);
  }

  /** Writes the long windows' calls counted since the last flush to the database; on failure they stay pending. */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    if (batch.length === 0) return;
    this.pending = new Map();
    try {
      await this.durable.add(batch);
    } catch (err) {
      for (const e of batch) this.note(e.bucket, e.windowStart, e.windowMs, e.calls);
      throw err;
    }
  }

  async forgetExpired(_now: number): Promise<void> {
    // Window keys expire by themselves (PEXPIREAT at the window's end, plus a grace).
  }

  private note(bucket: string, windowStart: number, windowMs: number, calls: number): void {
    const id = `${bucket}\u0000${windowStart}`;
    const entry = this.pending.get(id);
    if (entry) entry.calls += calls;
    else this.pending.set(id, { bucket, windowStart, windowMs, calls });
  }

  private pendingOf(bucket: string, windowStart: number): number {
    return this.pending.get(`${bucket}\u0000${windowStart}`)?.calls ?? 0;
  }
}

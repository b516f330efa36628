// Request windows counted in Redis: one script per request, atomic on the server, so hosts sharing it give a space
// its limit once. Nothing authoritative lives there: a minute window is worth a minute, and a day's count starts
// from the database's figure (`daily_usage`, which the usage flush keeps writing), so a Redis restart forgives at
// most the current minute and the calls not yet flushed.
import type { Redis } from './redis-driver.js';
import type { SharedLimitWindows } from '../shared/shared-counters.js';

/**
 * KEYS[1] the window; ARGV: limit, time to live (ms), the stored count to start a missing window from ('' for a
 * minute window, which starts at 0; for a day window '' means "not read yet": the script answers -2 and the caller
 * reads it). Answers the new count, or -1 when the limit is reached.
 */
const TAKE = `
local n = redis.call('GET', KEYS[1])
if not n then
  if ARGV[3] == 'ask' then return -2 end
  redis.call('SET', KEYS[1], ARGV[3] == '' and '0' or ARGV[3], 'PX', ARGV[2], 'NX')
  n = redis.call('GET', KEYS[1])
end
if tonumber(n) >= tonumber(ARGV[1]) then return -1 end
return redis.call('INCR', KEYS[1])`;

/** A minute window outlives its minute a little (clocks of hosts differ by a few seconds). */
const MINUTE_TTL_MS = 2 * 60_000;
/** A day window outlives its UTC day (a host whose clock lags still counts in it). */
const DAY_TTL_MS = 26 * 3_600_000;

export class RedisLimitWindows implements SharedLimitWindows {
  readonly daysStored = false;

  constructor(
    private readonly redis: Redis,
    /** Prefix of every key (`cerebro:` in service; tests use their own). */
    private readonly prefix: string,
    /** The day's count written in the database so far (read when Redis has no window for that day). */
    private readonly storedDay: (space: string, day: string) => Promise<number>,
  ) {}

  private async take(key: string, limit: number, ttlMs: number, start: string): Promise<number> {
    return (await this.redis.eval(TAKE, 1, key, limit, ttlMs, start)) as number;
  }

  async takeMinute(space: string, minute: number, limit: number): Promise<number | null> {
    if (limit <= 0) return null;
    const n = await this.take(`${this.prefix}rpm:${minute}:${space}`, limit, MINUTE_TTL_MS, '');
    return n < 0 ? null : n;
  }

  async takeDay(space: string, day: string, quota: number): Promise<number | null> {
    if (quota <= 0) return null;
    const key = `${this.prefix}dia:${day}:${space}`;
    let n = await this.take(key, quota, DAY_TTL_MS, 'ask');
    // Several hosts may read the stored figure at once; SET NX keeps the first, and each then counts on it.
    if (n === -2) n = await this.take(key, quota, DAY_TTL_MS, String(await this.storedDay(space, day)));
    return n < 0 ? null : n;
  }

  async forgetBefore(_minute: number): Promise<void> {
    // Minute windows expire by themselves (MINUTE_TTL_MS).
  }
}

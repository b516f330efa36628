// Limit windows and failed sign-ins counted in Redis (CEREBRO_REDIS_URL), over the database's counters.
import type { DependencyContainer } from 'tsyringe';
import { LimitWindowsRepositoryToken } from '../storage/port/limit-windows-repository.js';
import { SignInFailureRepositoryToken } from '../storage/port/sign-in-failure-repository.js';
import type { Pool } from '../storage/postgres/pg-driver.js';
import { PgLimitWindows } from '../storage/postgres/pg-limit-windows.js';
import type { Redis } from '../storage/redis/redis-driver.js';
import { RedisLimitWindows } from '../storage/redis/redis-limit-windows.js';
import { RedisSignInFailures } from '../storage/redis/redis-sign-in-failures.js';
import { SIGN_IN_LIMITS } from '../studio/sign-in-throttle.js';

/** Prefix of every key Cerebro writes in Redis. */
export const REDIS_PREFIX = 'cerebro:';

/**
 * Registers the Redis counters in place of the database's (registered last, they are what the container resolves).
 * Returns the limit windows, whose long windows' calls the caller writes to PostgreSQL with `flush`.
 */
export function registerRedisCounters(c: DependencyContainer, redis: Redis, pool: Pool): RedisLimitWindows {
  const windows = new RedisLimitWindows(redis, REDIS_PREFIX, new PgLimitWindows(pool));
  c.register(LimitWindowsRepositoryToken, { useValue: windows });
  c.register(SignInFailureRepositoryToken, {
    useValue: new RedisSignInFailures(redis, REDIS_PREFIX, SIGN_IN_LIMITS.windowMs),
  });
  return windows;
}

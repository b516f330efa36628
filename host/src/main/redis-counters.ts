// Limit windows and failed sign-ins counted in Redis (CEREBRO_REDIS_URL), over the database's counters.
import { createHash } from 'node:crypto';
import type { DependencyContainer } from 'tsyringe';
import { LimitWindowsRepositoryToken } from '../storage/port/limit-windows-repository.js';
import { SignInFailureRepositoryToken } from '../storage/port/sign-in-failure-repository.js';
import type { Pool } from '../storage/postgres/pg-driver.js';
import { PgLimitWindows } from '../storage/postgres/pg-limit-windows.js';
import type { Redis } from '../storage/redis/redis-driver.js';
import { RedisLimitWindows } from '../storage/redis/redis-limit-windows.js';
import { RedisSignInFailures } from '../storage/redis/redis-sign-in-failures.js';
import { SIGN_IN_LIMITS } from '../studio/sign-in-throttle.js';

/**
 * Prefix of every key a Cerebro deployment writes in Redis: `cerebro:` and a digest of its database's server, port
 * and name, so that deployments sharing one Redis (production and staging, or the test suite's hosts, each on a
 * database of its own) never count into each other's windows. Hosts of one deployment share the database, hence the
 * prefix. The user and password are left out: they do not make another deployment.
 */
export function redisPrefixOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const place = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  return `cerebro:${createHash('sha256').update(place).digest('hex').slice(0, 12)}:`;
}

/**
 * Registers the Redis counters in place of the database's (registered last, they are what the container resolves).
 * Returns the limit windows, whose long windows' calls the caller writes to PostgreSQL with `flush`.
 */
export function registerRedisCounters(
  c: DependencyContainer,
  redis: Redis,
  pool: Pool,
  prefix: string,
): RedisLimitWindows {
  const windows = new RedisLimitWindows(redis, prefix, new PgLimitWindows(pool));
  c.register(LimitWindowsRepositoryToken, { useValue: windows });
  c.register(SignInFailureRepositoryToken, {
    useValue: new RedisSignInFailures(redis, prefix, SIGN_IN_LIMITS.windowMs),
  });
  return windows;
}

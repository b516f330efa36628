// Storage shared by several hosts (issue #25): with CEREBRO_DATABASE_URL the host's repositories live in PostgreSQL,
// with CEREBRO_REDIS_URL the limit and sign-in counters in Redis. Without them nothing here runs, and neither driver
// is loaded: the embedded start and the single executable stay as they are.
import type { DependencyContainer } from 'tsyringe';
import type { HostConfig } from '../config/host-config.js';
import { redactUrl } from '../config/backend-urls.js';
import type { Logger as PinoLogger } from 'pino';
import { PG_HOST_MIGRATIONS } from '../storage/postgres/migrations/index.js';
import { createPgPool, type Pool } from '../storage/postgres/pg-driver.js';
import { applyPgMigrations, bootstrapOnce } from '../storage/postgres/pg-migrator.js';
import { createRedisClient, type Redis } from '../storage/redis/redis-driver.js';
import type { RedisLimitWindows } from '../storage/redis/redis-limit-windows.js';
import { registerPgAccessRepositories } from './pg-repositories.js';
import { registerPgContentRepositories } from './pg-content-repositories.js';
import { redisPrefixOf, registerRedisCounters } from './redis-counters.js';

/** How often the long windows counted in Redis (daily quotas) are written to PostgreSQL. */
const REDIS_FLUSH_MS = 10_000;

/** The servers a host shares with the others, open and migrated. */
export interface SharedBackend {
  readonly pool: Pool;
  /** Null without CEREBRO_REDIS_URL: the database counts limits and failed sign-ins. */
  readonly redis: Redis | null;
  /** Registers the PostgreSQL repositories (and the Redis counters) in the host's container, instead of SQLite's. */
  register(c: DependencyContainer): void;
  /**
   * Runs a first-start step once for every host of the database (`bootstrapOnce`: under the migration lock, its
   * writes in one transaction with the step's ledger row); null when another start already ran it.
   */
  once<T>(name: string, step: () => Promise<T>): Promise<T | null>;
  /** Writes what Redis counted for the database, then closes both connections. */
  close(): Promise<void>;
}

/**
 * Connects to CEREBRO_DATABASE_URL (and CEREBRO_REDIS_URL), and applies the host's pending PostgreSQL migrations
 * under the advisory lock: of several hosts starting together one migrates, the others wait and find nothing to do.
 * First-start steps run under the same lock with `bootstrapOnce` (storage/postgres/pg-migrator.ts).
 */
export async function openSharedBackend(
  config: Pick<HostConfig, 'databaseUrl' | 'redisUrl'>,
  log: PinoLogger,
): Promise<SharedBackend> {
  if (!config.databaseUrl) throw new Error('CEREBRO_DATABASE_URL no está definida.');
  const pool = await createPgPool(config.databaseUrl, {}, (err) =>
    log.warn({ err: err.message }, 'conexión inactiva con PostgreSQL perdida'),
  );
  let redis: Redis | null = null;
  try {
    const applied = await applyPgMigrations(pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
    for (const id of applied.host ?? []) log.info({ migracion: id }, 'migración del host aplicada en PostgreSQL');
    if (config.redisUrl) redis = await createRedisClient(config.redisUrl);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(`No se pudo preparar PostgreSQL en ${redactUrl(config.databaseUrl)}: ${(err as Error).message}`);
  }
  log.info(
    { postgresql: redactUrl(config.databaseUrl), redis: config.redisUrl ? redactUrl(config.redisUrl) : null },
    'almacenamiento compartido',
  );
  let windows: RedisLimitWindows | null = null;
  let flushing: NodeJS.Timeout | null = null;
  return {
    pool,
    redis,
    register(c) {
      registerPgAccessRepositories(c, pool);
      registerPgContentRepositories(c, pool);
      if (!redis) return;
      windows = registerRedisCounters(c, redis, pool, redisPrefixOf(config.databaseUrl!));
      const counted = windows;
      flushing = setInterval(() => {
        counted
          .flush()
          .catch((err: Error) => log.warn({ err: err.message }, 'no se pudo escribir la cuota en PostgreSQL'));
      }, REDIS_FLUSH_MS);
      flushing.unref();
    },
    async once(name, step) {
      let result: Awaited<ReturnType<typeof step>> | null = null;
      await bootstrapOnce(pool, name, async () => {
        result = await step();
      });
      return result;
    },
    async close() {
      if (flushing) clearInterval(flushing);
      await windows?.flush().catch(() => undefined);
      redis?.disconnect();
      await pool.end();
    },
  };
}

// The Redis client, loaded only when `CEREBRO_REDIS_URL` is set: the embedded start never imports `ioredis`, and the
// single executable does not carry it (scripts/binary/bundle.mjs keeps it out of the bundles).
import type { Redis, RedisOptions } from 'ioredis';

export type { Redis };

async function loadIoredis(): Promise<{ Redis: typeof Redis }> {
  try {
    const { Redis } = await import('ioredis');
    return { Redis };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(
        'CEREBRO_REDIS_URL pide Redis, pero el paquete "ioredis" no está instalado (el ejecutable único no lo trae): instala Cerebro con npm para usar Redis.',
      );
    }
    throw err;
  }
}

/**
 * A client of `url`. Commands wait while the connection is re-established, but only briefly: a limit that cannot be
 * counted must fail its request quickly rather than hold it (the caller decides what a failure means).
 */
export async function createRedisClient(url: string, options: RedisOptions = {}): Promise<Redis> {
  const { Redis } = await loadIoredis();
  const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, ...options, lazyConnect: true });
  await client.connect();
  return client;
}

// A Redis of the tests: the machines' local server (`CEREBRO_TEST_REDIS_URL`), each test under a key prefix of its
// own, removed afterwards.
import { randomBytes } from 'node:crypto';
import { createRedisClient, type Redis } from './redis-driver.js';

import { TEST_REDIS_URL } from '../../test-kit/scratch-backend.js';

export { TEST_REDIS_URL };

/** Null when the test server answers; otherwise why the tests that need it are skipped. */
export async function redisUnavailable(): Promise<string | null> {
  let client: Redis | undefined;
  try {
    // No reconnection: a server that is not there fails the probe at once.
    client = await createRedisClient(TEST_REDIS_URL, { retryStrategy: () => null, connectTimeout: 2_000 });
    await client.ping();
    return null;
  } catch (err) {
    return `Redis no responde en ${new URL(TEST_REDIS_URL).host} (${(err as Error).message}): pruebas de Redis omitidas`;
  } finally {
    client?.disconnect();
  }
}

export const testPrefix = (): string => `cerebro_t_${randomBytes(6).toString('hex')}:`;

/** Removes every key under `prefix`. */
export async function dropPrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

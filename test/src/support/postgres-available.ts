// Whether this machine has the PostgreSQL and Redis the testing kit's CEREBRO_TEST_BACKEND=postgres needs: a skip
// reason (for node:test's `skip`), or false when both answer.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HOST_DIST = fileURLToPath(new URL('../../../host/dist/', import.meta.url));

const hostModule = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(HOST_DIST, path)).href)) as T;

export async function postgresMissing(): Promise<string | false> {
  const { pgUnavailable } = await hostModule<{ pgUnavailable(): Promise<string | null> }>(
    'storage/postgres/testing/pg-test-database.js',
  );
  const { redisUnavailable } = await hostModule<{ redisUnavailable(): Promise<string | null> }>(
    'storage/redis/testing-redis.js',
  );
  return (await pgUnavailable()) ?? (await redisUnavailable()) ?? false;
}

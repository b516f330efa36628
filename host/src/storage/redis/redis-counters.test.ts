// The shared counters of limits on the real servers: Redis (CEREBRO_REDIS_URL) and the PostgreSQL fallback, each
// driven by several clients at once (as several hosts would), must count exactly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PG_HOST_MIGRATIONS } from '../postgres/migrations/index.js';
import { createPgPool } from '../postgres/pg-driver.js';
import { PgLimitWindows } from '../postgres/pg-limit-windows.js';
import { applyPgMigrations } from '../postgres/pg-migrator.js';
import { PgSignInFailures } from '../postgres/pg-sign-in-failures.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from '../postgres/testing/pg-test-database.js';
import type { SharedLimitWindows, SharedSignInFailures } from '../shared/shared-counters.js';
import { createRedisClient, type Redis } from './redis-driver.js';
import { RedisLimitWindows } from './redis-limit-windows.js';
import { RedisSignInFailures } from './redis-sign-in-failures.js';
import { dropPrefix, redisUnavailable, TEST_REDIS_URL, testPrefix } from './testing-redis.js';

const CLIENTS = 5;
const CALLS = 200;

/** The same behaviour from any backend: `make` returns one store per simulated host, all on one server. */
function countersContract(
  name: string,
  skip: string | false,
  setup: () => Promise<{
    hosts: { windows: SharedLimitWindows; failures: SharedSignInFailures }[];
    /** Simulates the server forgetting everything (a Redis restart); undefined where that cannot happen. */
    restart?: () => Promise<void>;
    storeDay: (space: string, day: string, calls: number) => Promise<void>;
    close: () => Promise<void>;
  }>,
) {
  describe(name, { skip }, () => {
    let env: Awaited<ReturnType<typeof setup>>;
    before(async () => {
      env = await setup();
    });
    after(async () => {
      await env?.close();
    });

    test(`${CLIENTS} hosts taking ${CALLS} requests at once against a limit of 137 per minute: exactly 137 pass`, async () => {
      const results = await Promise.all(
        Array.from({ length: CALLS }, (_, i) => env.hosts[i % CLIENTS]!.windows.takeMinute('tienda', 1000, 137)),
      );
      const passed = results.filter((n): n is number => n !== null);
      assert.equal(passed.length, 137);
      assert.deepEqual(
        [...passed].sort((a, b) => a - b),
        Array.from({ length: 137 }, (_, i) => i + 1),
        'every count from 1 to 137 handed out once',
      );
      assert.equal(await env.hosts[0]!.windows.takeMinute('tienda', 1001, 137), 1, 'the next minute starts again');
      assert.equal(await env.hosts[1]!.windows.takeMinute('otra', 1000, 137), 1, 'another space counts apart');
    });

    test('the daily quota: exact across hosts, and it starts from what the database holds for the day', async () => {
      await env.storeDay('diario', '2026-11-27', 40);
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => env.hosts[i % CLIENTS]!.windows.takeDay('diario', '2026-11-27', 90)),
      );
      assert.equal(results.filter((n) => n !== null).length, 50);
      assert.equal(await env.hosts[0]!.windows.takeDay('diario', '2026-11-27', 90), null);
      assert.equal(await env.hosts[0]!.windows.takeDay('diario', '2026-11-28', 90), 1);
    });

    test('a restart of the counting server forgives the minute, not the day', async () => {
      if (!env.restart) return;
      await env.storeDay('reinicio', '2026-11-27', 30);
      assert.equal(await env.hosts[0]!.windows.takeMinute('reinicio', 5, 3), 1);
      assert.equal(await env.hosts[0]!.windows.takeDay('reinicio', '2026-11-27', 31), 31);
      await env.restart();
      assert.equal(await env.hosts[1]!.windows.takeMinute('reinicio', 5, 3), 1, 'the minute starts again');
      // The day restarts from the database's figure (30): what the usage flush wrote survives.
      assert.equal(await env.hosts[1]!.windows.takeDay('reinicio', '2026-11-27', 31), 31);
      assert.equal(await env.hosts[1]!.windows.takeDay('reinicio', '2026-11-27', 31), null);
    });

    test('failed sign-ins from several hosts at once are all counted, in time order, and cleared per subject', async () => {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          env.hosts[i % CLIENTS]!.failures.add(['e:ana@x.es', 'i:10.0.0.1'], 5000 + (i % 10)),
        ),
      );
      const times = await env.hosts[0]!.failures.since('e:ana@x.es', 0);
      assert.equal(times.length, 50, 'failures in the same millisecond are each counted');
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
      );
      assert.equal((await env.hosts[1]!.failures.since('e:ana@x.es', 5004)).length, 25);
      await env.hosts[2]!.failures.clear('e:ana@x.es');
      assert.deepEqual(await env.hosts[3]!.failures.since('e:ana@x.es', 0), []);
      assert.equal((await env.hosts[3]!.failures.since('i:10.0.0.1', 0)).length, 50);
    });
  });
}

const pgSkip = (await pgUnavailable()) ?? false;
const redisSkip = (await redisUnavailable()) ?? pgSkip;

countersContract('shared counters on Redis', redisSkip, async () => {
  const prefix = testPrefix();
  const clients: Redis[] = await Promise.all(Array.from({ length: CLIENTS }, () => createRedisClient(TEST_REDIS_URL)));
  // The day's stored figure lives in the database; here a map stands for daily_usage.
  const stored = new Map<string, number>();
  const storedDay = async (space: string, day: string) => stored.get(`${space}/${day}`) ?? 0;
  return {
    hosts: clients.map((c) => ({
      windows: new RedisLimitWindows(c, prefix, storedDay),
      failures: new RedisSignInFailures(c, prefix, 15 * 60_000),
    })),
    restart: () => dropPrefix(clients[0]!, prefix),
    storeDay: async (space, day, calls) => void stored.set(`${space}/${day}`, calls),
    close: async () => {
      await dropPrefix(clients[0]!, prefix);
      for (const c of clients) c.disconnect();
    },
  };
});

let pg: TestDatabase | undefined;
countersContract('shared counters on PostgreSQL (no Redis configured)', pgSkip, async () => {
  pg = await createTestDatabase(2);
  await applyPgMigrations(pg.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
  const pools = await Promise.all(Array.from({ length: CLIENTS }, () => createPgPool(pg!.url, { max: 4 })));
  return {
    hosts: pools.map((p) => ({ windows: new PgLimitWindows(p), failures: new PgSignInFailures(p) })),
    storeDay: async (space, day, calls) =>
      void (await pg!.pool.query('INSERT INTO daily_usage (space_id, day, calls) VALUES ($1, $2, $3)', [
        space,
        day,
        calls,
      ])),
    close: async () => {
      await Promise.all(pools.map((p) => p.end()));
      await pg!.drop();
    },
  };
});

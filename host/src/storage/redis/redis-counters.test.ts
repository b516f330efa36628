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
import type { LimitWindowsRepository } from '../port/limit-windows-repository.js';
import type { SignInFailureRepository } from '../port/sign-in-failure-repository.js';
import { createRedisClient, type Redis } from './redis-driver.js';
import { RedisLimitWindows } from './redis-limit-windows.js';
import { RedisSignInFailures } from './redis-sign-in-failures.js';
import { dropPrefix, redisUnavailable, TEST_REDIS_URL, testPrefix } from './testing-redis.js';

const CLIENTS = 5;
const CALLS = 200;

const MINUTE = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 27);

/** The same behaviour from any backend: one store per simulated host, all on one server. */
function countersContract(
  name: string,
  skip: string | false,
  setup: () => Promise<{
    hosts: { windows: LimitWindowsRepository; failures: SignInFailureRepository }[];
    /** Simulates the counting server forgetting everything (a Redis restart); undefined where it cannot happen. */
    restart?: () => Promise<void>;
    /** Writes what the hosts hold for the database (Redis: the long windows' calls). */
    flush: () => Promise<void>;
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
    const host = (i: number) => env.hosts[i % CLIENTS]!.windows;

    test(`${CLIENTS} hosts hitting a window ${CALLS} times at once against a limit of 137: exactly 137 pass`, async () => {
      const results = await Promise.all(
        Array.from({ length: CALLS }, (_, i) => host(i).hit('espacio:tienda:minuto', T0, MINUTE, 137)),
      );
      const passed = results.filter((r) => r.allowed).map((r) => r.count);
      assert.equal(passed.length, 137);
      assert.deepEqual(
        [...passed].sort((a, b) => a - b),
        Array.from({ length: 137 }, (_, i) => i + 1),
        'every count from 1 to 137 handed out once',
      );
      assert.ok(results.filter((r) => !r.allowed).every((r) => r.count === 137));
      assert.equal(await host(0).count('espacio:tienda:minuto', T0), 137);
      assert.deepEqual(await host(0).hit('espacio:tienda:minuto', T0 + MINUTE, MINUTE, 137), {
        count: 1,
        allowed: true,
      });
      assert.deepEqual(await host(1).hit('clave:k1:minuto', T0, MINUTE, 137), { count: 1, allowed: true });
      assert.equal((await host(2).hit('clave:k1:minuto', T0, MINUTE, 0)).allowed, false, 'a limit of 0 refuses');
    });

    test('a daily quota: exact across hosts, calls added from memory count, and it survives a flush', async () => {
      await host(0).add([{ bucket: 'espacio:diario:dia', windowStart: T0, windowMs: DAY, calls: 40 }]);
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => host(i).hit('espacio:diario:dia', T0, DAY, 90)),
      );
      assert.equal(results.filter((r) => r.allowed).length, 50);
      await env.flush();
      assert.equal(await host(3).count('espacio:diario:dia', T0), 90);
      assert.equal((await host(0).hit('espacio:diario:dia', T0 + DAY, DAY, 90)).count, 1);
    });

    test('a restart of the counting server forgives the minute, not the day', async () => {
      if (!env.restart) return;
      await host(0).hit('espacio:reinicio:minuto', T0, MINUTE, 3);
      await host(0).add([{ bucket: 'espacio:reinicio:dia', windowStart: T0, windowMs: DAY, calls: 29 }]);
      assert.equal((await host(0).hit('espacio:reinicio:dia', T0, DAY, 31)).count, 30);
      await env.flush();
      assert.equal((await host(1).hit('espacio:reinicio:dia', T0, DAY, 31)).count, 31, 'not yet flushed');
      await env.restart();
      assert.equal((await host(1).hit('espacio:reinicio:minuto', T0, MINUTE, 3)).count, 1, 'the minute starts again');
      // The day starts again from the database (30) plus what this host counted and has not flushed (1).
      assert.deepEqual(await host(1).hit('espacio:reinicio:dia', T0, DAY, 31), { count: 31, allowed: false });
      await env.flush();
      assert.equal(await host(2).count('espacio:reinicio:dia', T0), 31);
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

async function migratedDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase(2);
  await applyPgMigrations(db.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
  return db;
}

const pgSkip = (await pgUnavailable()) ?? false;
const redisSkip = (await redisUnavailable()) ?? pgSkip;

countersContract('shared counters on Redis, long windows recorded in PostgreSQL', redisSkip, async () => {
  const prefix = testPrefix();
  const db = await migratedDatabase();
  const durable = new PgLimitWindows(db.pool);
  const clients: Redis[] = await Promise.all(Array.from({ length: CLIENTS }, () => createRedisClient(TEST_REDIS_URL)));
  const windows = clients.map((c) => new RedisLimitWindows(c, prefix, durable));
  return {
    hosts: clients.map((c, i) => ({
      windows: windows[i]!,
      failures: new RedisSignInFailures(c, prefix, 15 * 60_000),
    })),
    restart: () => dropPrefix(clients[0]!, prefix),
    flush: async () => {
      for (const w of windows) await w.flush();
    },
    close: async () => {
      await dropPrefix(clients[0]!, prefix);
      for (const c of clients) c.disconnect();
      await db.drop();
    },
  };
});

countersContract('shared counters on PostgreSQL (no Redis configured)', pgSkip, async () => {
  const db = await migratedDatabase();
  const pools = await Promise.all(Array.from({ length: CLIENTS }, () => createPgPool(db.url, { max: 4 })));
  return {
    hosts: pools.map((p) => ({ windows: new PgLimitWindows(p), failures: new PgSignInFailures(p) })),
    flush: async () => undefined,
    close: async () => {
      await Promise.all(pools.map((p) => p.end()));
      await db.drop();
    },
  };
});

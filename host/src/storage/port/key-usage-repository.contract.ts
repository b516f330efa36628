import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KeyUsageRepository } from './key-usage-repository.js';

/**
 * The behaviour every key usage backend must show. `make` gives a store holding one key, `keyId`, with no calls,
 * and `stored` reads back that key's `llamadas`, `por_ruta` and `ultimo_uso` as the key listing does.
 */
export function keyUsageRepositoryContract(
  name: string,
  make: () => Promise<{
    repo: KeyUsageRepository;
    keyId: string;
    stored(): Promise<{ calls: number; byRoute: Record<string, number>; lastUsedAt: string | null }>;
    close(): Promise<void>;
  }>,
): void {
  test(`${name}: batches add up per key, route and day; the latest use wins`, async () => {
    const { repo, keyId, stored, close } = await make();
    try {
      await repo.addCalls([
        {
          keyId,
          calls: 5,
          lastUsedAt: '2026-03-02T10:00:00.000Z',
          days: [
            { day: '2026-03-01', byRoute: new Map([['GET /companies', 2]]) },
            {
              day: '2026-03-02',
              byRoute: new Map([
                ['GET /companies', 1],
                ['POST /rag/{espacio}/conversations', 2],
              ]),
            },
          ],
        },
      ]);
      // A second process's batch for the same key, with an older last use.
      await repo.addCalls([
        {
          keyId,
          calls: 1,
          lastUsedAt: '2026-03-02T09:00:00.000Z',
          days: [{ day: '2026-03-02', byRoute: new Map([['GET /companies', 1]]) }],
        },
      ]);
      assert.deepEqual(await stored(), {
        calls: 6,
        byRoute: { 'GET /companies': 4, 'POST /rag/{espacio}/conversations': 2 },
        lastUsedAt: '2026-03-02T10:00:00.000Z',
      });
      assert.deepEqual(await repo.daysFrom(keyId, '2026-03-02'), [
        { day: '2026-03-02', route: 'GET /companies', calls: 2 },
        { day: '2026-03-02', route: 'POST /rag/{espacio}/conversations', calls: 2 },
      ]);
      assert.equal((await repo.daysFrom(keyId, '2026-03-01')).length, 3);
      assert.deepEqual(await repo.daysFrom('0000000000000000', '2026-01-01'), []);
    } finally {
      await close();
    }
  });

  test(`${name}: a route label with quotes is stored under its own name`, async () => {
    const { repo, keyId, stored, close } = await make();
    try {
      const route = 'GET /mod/x/"raro"';
      await repo.addCalls([
        {
          keyId,
          calls: 1,
          lastUsedAt: '2026-03-02T10:00:00.000Z',
          days: [{ day: '2026-03-02', byRoute: new Map([[route, 1]]) }],
        },
      ]);
      assert.deepEqual((await stored()).byRoute, { [route]: 1 });
    } finally {
      await close();
    }
  });
}

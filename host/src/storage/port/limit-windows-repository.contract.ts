import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LimitWindowsRepository } from './limit-windows-repository.js';

const MINUTE = 60_000;

/** The behaviour every limit windows backend must show (SQLite today; PostgreSQL or Redis later). */
export function limitWindowsRepositoryContract(
  name: string,
  make: () => Promise<{ repo: LimitWindowsRepository; close(): Promise<void> }>,
): void {
  test(`${name}: hit counts up to the limit and then refuses without counting`, async () => {
    const { repo, close } = await make();
    try {
      const start = 100 * MINUTE;
      const hits = [];
      for (let i = 0; i < 5; i++) hits.push(await repo.hit('espacio:a:minuto', start, MINUTE, 3));
      assert.deepEqual(hits, [
        { count: 1, allowed: true },
        { count: 2, allowed: true },
        { count: 3, allowed: true },
        { count: 3, allowed: false },
        { count: 3, allowed: false },
      ]);
      assert.equal(await repo.count('espacio:a:minuto', start), 3);
      // A higher limit set meanwhile lets the same window go on from where it stands.
      assert.deepEqual(await repo.hit('espacio:a:minuto', start, MINUTE, 5), { count: 4, allowed: true });
      // Another window, another bucket: counted apart.
      assert.deepEqual(await repo.hit('espacio:a:minuto', start + MINUTE, MINUTE, 3), { count: 1, allowed: true });
      assert.deepEqual(await repo.hit('clave:a:minuto', start, MINUTE, 3), { count: 1, allowed: true });
      assert.equal(await repo.count('espacio:b:minuto', start), 0);
    } finally {
      await close();
    }
  });

  test(`${name}: a limit of 0 refuses every request and counts nothing`, async () => {
    const { repo, close } = await make();
    try {
      assert.equal((await repo.hit('espacio:z:dia', 0, 86_400_000, 0)).allowed, false);
      assert.equal(await repo.count('espacio:z:dia', 0), 0);
    } finally {
      await close();
    }
  });

  test(`${name}: add is additive and all-or-nothing; hits see what was added`, async () => {
    const { repo, close } = await make();
    try {
      const day = 20_000 * 86_400_000;
      await repo.add([
        { bucket: 'espacio:a:dia', windowStart: day, windowMs: 86_400_000, calls: 4 },
        { bucket: 'clave:k:dia', windowStart: day, windowMs: 86_400_000, calls: 2 },
      ]);
      await repo.add([{ bucket: 'espacio:a:dia', windowStart: day, windowMs: 86_400_000, calls: 3 }]);
      await repo.add([]);
      assert.equal(await repo.count('espacio:a:dia', day), 7);
      assert.equal(await repo.count('clave:k:dia', day), 2);
      assert.deepEqual(await repo.hit('espacio:a:dia', day, 86_400_000, 8), { count: 8, allowed: true });
      assert.deepEqual(await repo.hit('espacio:a:dia', day, 86_400_000, 8), { count: 8, allowed: false });
    } finally {
      await close();
    }
  });

  test(`${name}: parallel hits on one window never pass the limit together`, async () => {
    const { repo, close } = await make();
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, () => repo.hit('espacio:p:minuto', 7 * MINUTE, MINUTE, 25)),
      );
      assert.equal(results.filter((r) => r.allowed).length, 25);
      assert.equal(await repo.count('espacio:p:minuto', 7 * MINUTE), 25);
    } finally {
      await close();
    }
  });

  test(`${name}: forgetExpired drops only windows that ended`, async () => {
    const { repo, close } = await make();
    try {
      await repo.hit('espacio:f:minuto', 10 * MINUTE, MINUTE, 5);
      await repo.hit('espacio:f:minuto', 11 * MINUTE, MINUTE, 5);
      await repo.hit('espacio:f:dia', 0, 86_400_000, 5);
      await repo.forgetExpired(11 * MINUTE + 1);
      assert.equal(await repo.count('espacio:f:minuto', 10 * MINUTE), 0);
      assert.equal(await repo.count('espacio:f:minuto', 11 * MINUTE), 1);
      assert.equal(await repo.count('espacio:f:dia', 0), 1);
    } finally {
      await close();
    }
  });
}

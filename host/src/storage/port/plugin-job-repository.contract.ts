// The behaviour every PluginJobRepository gives (issue #24 item 3): run against SQLite today, PostgreSQL next.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NewPluginJob, PluginJobRepository } from './plugin-job-repository.js';

const AT = '2026-01-01T00:00:00.000Z';

const job = (id: string, over: Partial<NewPluginJob> = {}): NewPluginJob => ({
  id,
  plugin: 'fuentes',
  kind: 'ejecucion',
  space: 'uno',
  payload: JSON.stringify({ id }),
  key: null,
  runAt: 1000,
  everyMs: null,
  at: AT,
  ...over,
});

const lease = (owner: string, now = 1000, leaseUntil = 10_000) => ({ owner, now, leaseUntil, at: AT });

export function pluginJobRepositoryContract(
  name: string,
  make: () => Promise<{ repo: PluginJobRepository; other: PluginJobRepository; close(): Promise<void> }>,
): void {
  test(`${name}: a dedupe key is held by one unfinished job; two claimers never get the same job`, async () => {
    const { repo, other, close } = await make();
    try {
      const [a, b] = await Promise.all([
        repo.enqueue(job('a', { key: 'fuente:1' })),
        other.enqueue(job('b', { key: 'fuente:1' })),
      ]);
      assert.deepEqual([a.created, b.created], [true, false]);
      assert.equal(b.job.id, 'a', 'the holder is returned');
      assert.equal((await other.byKey('fuentes', 'fuente:1'))?.id, 'a');
      assert.equal(await repo.byKey('landing', 'fuente:1'), null, 'keys are per plugin');
      assert.equal(await repo.hasDue('fuentes', ['ejecucion'], 999), false, 'not before its time');
      assert.equal(await repo.hasDue('fuentes', ['ficha', 'ejecucion'], 1000), true);
      assert.equal(await repo.claimNext('fuentes', 'ejecucion', lease('p1', 999)), null, 'not due yet');
      const claims = await Promise.all([
        repo.claimNext('fuentes', 'ejecucion', lease('p1')),
        other.claimNext('fuentes', 'ejecucion', lease('p2')),
      ]);
      assert.equal(claims.filter((c) => c !== null).length, 1, 'one claimer gets it');
      const claimed = claims.find((c) => c !== null)!;
      assert.deepEqual([claimed.state, claimed.attempts, claimed.id], ['running', 1, 'a']);
      assert.equal((await repo.enqueue(job('c', { key: 'fuente:1' }))).created, false, 'running still holds it');
      assert.equal(await repo.finish('a', claimed.leaseOwner === 'p1' ? 'p2' : 'p1', outcome('done')), false);
      assert.equal(await repo.finish('a', claimed.leaseOwner!, outcome('done')), true);
      assert.equal((await repo.get('fuentes', 'a'))?.state, 'done');
      assert.equal((await repo.enqueue(job('d', { key: 'fuente:1' }))).created, true, 'a finished job frees it');
    } finally {
      await close();
    }
  });

  test(`${name}: spaces take turns, the one served longest ago first`, async () => {
    const { repo, close } = await make();
    try {
      for (let i = 0; i < 3; i++) await repo.enqueue(job(`uno-${i}`, { runAt: 100 + i }));
      await repo.enqueue(job('dos-0', { space: 'dos', runAt: 500 }));
      await repo.enqueue(job('ficha', { kind: 'ficha', runAt: 1 }));
      const order: string[] = [];
      for (;;) {
        const next = await repo.claimNext('fuentes', 'ejecucion', lease('p1'));
        if (!next) break;
        order.push(next.id);
      }
      assert.deepEqual(order, ['uno-0', 'dos-0', 'uno-1', 'uno-2'], 'dos is not behind all of uno');
      assert.equal((await repo.get('fuentes', 'ficha'))?.state, 'queued', 'another kind is not claimed');
    } finally {
      await close();
    }
  });

  test(`${name}: leases are renewed by their owner, taken back only when expired or their owner is gone`, async () => {
    const { repo, other, close } = await make();
    try {
      await repo.enqueue(job('a'));
      await repo.enqueue(job('b'));
      await repo.claimNext('fuentes', 'ejecucion', lease('vivo', 1000, 5000));
      await other.claimNext('fuentes', 'ejecucion', lease('muerto', 1000, 5000));
      const gone = (owner: string | null) => owner === 'muerto';
      const takeBack = (now: number) => repo.takeBackLost({ owner: 'otro', now, at: AT, ownerIsGone: gone });
      assert.equal(await takeBack(4000), 1, "only the gone owner's job");
      assert.deepEqual(await repo.renewLeases('vivo', 9000), [{ id: 'a', cancelRequested: false }]);
      assert.equal(await takeBack(8000), 0, 'renewed: still live');
      assert.equal(await repo.progress('b', 'muerto', 0.5, AT), false, 'the lost owner writes nothing');
      const again = await other.claimNext('fuentes', 'ejecucion', lease('nuevo'));
      assert.deepEqual([again?.id, again?.attempts], ['b', 2], 'claimed again, its claims counted');
      assert.equal(await repo.progress('b', 'nuevo', 0.5, AT), true);
      assert.equal((await repo.get('fuentes', 'b'))?.progress, 0.5);
      assert.equal(await takeBack(9000), 1, "an expired lease is taken back, even a live owner's");
      assert.equal(await repo.release('b', 'nuevo', AT), true, 'released by its owner (stopping)');
      const released = await repo.get('fuentes', 'b');
      assert.deepEqual([released?.state, released?.attempts], ['queued', 1], 'a release does not count the claim');
    } finally {
      await close();
    }
  });

  test(`${name}: cancel ends a queued job at once and asks a running job's owner to stop`, async () => {
    const { repo, other, close } = await make();
    try {
      await repo.enqueue(job('a'));
      await repo.enqueue(job('b', { runAt: 2000 }));
      await repo.claimNext('fuentes', 'ejecucion', lease('p1'));
      assert.equal(await other.cancel('fuentes', 'b', AT), 'cancelled');
      assert.equal((await repo.get('fuentes', 'b'))?.state, 'cancelled');
      assert.equal(await other.cancel('landing', 'a', AT), null, "another plugin's job");
      assert.equal(await other.cancel('fuentes', 'a', AT), 'cancelling');
      assert.deepEqual(await repo.held('p1'), [{ id: 'a', cancelRequested: true }], 'its owner sees the request');
      assert.deepEqual(await repo.renewLeases('p1', 20_000), [{ id: 'a', cancelRequested: true }]);
      assert.equal(await repo.finish('a', 'p1', outcome('cancelled')), true);
      assert.equal(await other.cancel('fuentes', 'a', AT), null, 'finished');
      assert.equal(await repo.forgetFinished('2026-01-01T00:00:00.001Z'), 2);
      assert.equal(await repo.get('fuentes', 'a'), null);
    } finally {
      await close();
    }
  });

  test(`${name}: a recurring job is queued again after each turn, until cancelled`, async () => {
    const { repo, close } = await make();
    try {
      await repo.enqueue(job('hora', { kind: 'programada', key: 'programada:1', everyMs: 3_600_000 }));
      const first = await repo.claimNext('fuentes', 'programada', lease('p1'));
      assert.equal(first?.id, 'hora');
      assert.equal(await repo.finish('hora', 'p1', { ...outcome('failed'), error: 'sin red', now: 5000 }), true);
      const next = await repo.get('fuentes', 'hora');
      assert.deepEqual(
        [next?.state, next?.runAt, next?.attempts, next?.error],
        ['queued', 3_605_000, 0, 'sin red'],
        'its next turn, whatever this one did',
      );
      assert.equal(await repo.claimNext('fuentes', 'programada', lease('p1', 3_604_999)), null, 'not before');
      await repo.claimNext('fuentes', 'programada', lease('p1', 3_605_000));
      await repo.cancel('fuentes', 'hora', AT);
      assert.equal(await repo.finish('hora', 'p1', outcome('done')), true);
      assert.equal((await repo.get('fuentes', 'hora'))?.state, 'done', 'a cancelled schedule ends');
    } finally {
      await close();
    }
  });
}

function outcome(state: 'done' | 'failed' | 'cancelled') {
  return { state, error: null, now: 1000, at: AT };
}

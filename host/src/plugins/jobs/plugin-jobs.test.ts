// HostServices.Jobs across processes: two services on two connections to one database file act as two processes
// (each its own owner). Handlers run in one of them only, cancel reaches the other within a second, a stop gives
// the job back, a dead owner's job is resumed once elsewhere, and an api process never runs a job.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobContext, Logger } from '@cerebro/sdk';
import { migratedDatabaseFile } from '../../storage/sqlite/migrated-file.js';
import { SqlitePluginJobRepository } from '../../storage/sqlite/plugin-job-repository.js';
import { PluginJobs, type PluginJobsOptions } from './plugin-jobs.js';

const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as unknown as Logger;

async function twoProcesses(t: { after(fn: () => unknown): void }, options: Partial<PluginJobsOptions> = {}) {
  const { db, second, close } = await migratedDatabaseFile();
  const gone = new Set<string>();
  const make = (owner: string, file = db, runsJobs = true) =>
    new PluginJobs(
      'fuentes',
      new SqlitePluginJobRepository(file),
      {
        runsJobs,
        owner,
        clock: { now: () => Date.now() },
        pollMs: 50,
        leaseMs: 30_000,
        keepFinishedMs: 86_400_000,
        ownerIsGone: (o) => o !== null && gone.has(o),
        ...options,
      },
      silent,
    );
  const services: PluginJobs[] = [];
  const track = (s: PluginJobs) => (services.push(s), s);
  t.after(async () => {
    for (const s of services) await s.stop();
    await close();
  });
  return {
    first: track(make('uno')),
    second: track(make('dos', second)),
    api: track(make('api', second, false)),
    gone,
    make: (owner: string) => track(make(owner, second)),
  };
}

const until = async (what: string, probe: () => boolean | Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('a job runs once in one of the processes that handle its kind; an api process only enqueues', async (t) => {
  const { first, second, api } = await twoProcesses(t);
  const ran: string[] = [];
  const handler = (who: string) => async (job: JobContext) => {
    ran.push(`${who}:${job.payload.n}`);
    assert.equal(await job.progress(0.5), true);
  };
  api.handle('eco', handler('api'));
  first.handle('eco', handler('uno'));
  second.handle('eco', handler('dos'));
  const ids: string[] = [];
  for (let n = 0; n < 6; n++) ids.push((await api.enqueue('eco', { n }, { space: `s${n % 2}` })).id);
  await until('all done', async () =>
    (await Promise.all(ids.map((id) => api.get(id)))).every((j) => j?.state === 'done'),
  );
  assert.equal(ran.length, 6, ran.join());
  assert.equal(new Set(ran.map((r) => r.split(':')[1])).size, 6, 'each once');
  assert.ok(!ran.some((r) => r.startsWith('api:')), 'never in the api process');
  assert.equal(api.runsJobs, false);
  const dup = await api.enqueue('eco', {}, { space: 's0', key: 'k', runAt: Date.now() + 60_000 });
  assert.deepEqual(await api.enqueue('eco', {}, { space: 's0', key: 'k' }), { id: dup.id, created: false });
});

test('a cancel asked in another process stops the running handler within a second', async (t) => {
  const { first, api } = await twoProcesses(t);
  let stoppedBy: unknown = null;
  first.handle('lento', async (job) => {
    await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }));
    stoppedBy = job.signal.reason;
    throw new Error('cortado');
  });
  const { id } = await api.enqueue('lento', {}, { space: 's' });
  await until('running', async () => (await api.get(id))?.state === 'running');
  const asked = Date.now();
  assert.equal(await api.cancel(id), 'cancelling');
  await until('cancelled', async () => (await api.get(id))?.state === 'cancelled', 1000);
  assert.ok(Date.now() - asked < 1000);
  assert.equal(stoppedBy, 'cancel');
  assert.equal((await api.get(id))?.error, null);
  const queued = await api.enqueue('lento', {}, { space: 's', runAt: Date.now() + 60_000 });
  assert.equal(await api.cancel(queued.id), 'cancelled', 'a queued job ends at once');
  assert.equal(await api.cancel(queued.id), null);
});

test("a stopping process gives its job back; a dead process's job is resumed once by another", async (t) => {
  const { first, second, gone, make } = await twoProcesses(t);
  const attempts: string[] = [];
  const hang = (who: string) => async (job: JobContext) => {
    attempts.push(`${who}:${job.attempt}`);
    await new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(job.signal.reason)));
  };
  first.handle('larga', hang('uno'));
  const { id } = await first.enqueue('larga', {}, { space: 's' });
  await until('claimed', () => attempts.length === 1);
  await first.stop();
  const back = await second.get(id);
  assert.deepEqual([back?.state, back?.attempts], ['queued', 0], 'queued again, the claim not counted');

  second.handle('larga', hang('dos'));
  await until('claimed again', () => attempts.length === 2);
  gone.add('dos'); // the process "dies": its pid is gone, its lease still runs
  const third = make('tres');
  let finished = 0;
  third.handle('larga', async (job) => {
    attempts.push(`tres:${job.attempt}`);
    finished++;
  });
  await until('resumed', async () => (await third.get(id))?.state === 'done');
  assert.deepEqual(attempts, ['uno:1', 'dos:1', 'tres:2']);
  assert.equal(finished, 1);
});

test('a recurring job runs each turn once across processes', async (t) => {
  let now = 1_000_000;
  const { first, second } = await twoProcesses(t, { clock: { now: () => now } });
  const turns: number[] = [];
  const handler = async () => {
    turns.push(now);
  };
  first.handle('programada', handler);
  second.handle('programada', handler);
  const [a, b] = await Promise.all([
    first.enqueue('programada', {}, { space: 's', key: 'p', runAt: now + 3_600_000, everyMs: 3_600_000 }),
    second.enqueue('programada', {}, { space: 's', key: 'p', runAt: now + 3_600_000, everyMs: 3_600_000 }),
  ]);
  assert.equal(a.id, b.id);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(turns, [], 'not before its time');
  now += 3_600_000;
  await until('first turn', () => turns.length === 1);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(turns, [now], 'once');
  assert.equal((await first.get(a.id))?.runAt, now + 3_600_000, 'the next turn an hour after this one');
});

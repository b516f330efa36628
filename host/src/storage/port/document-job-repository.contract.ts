// The behaviour every DocumentJobRepository gives (issues #24 and #25): run against SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IndexedPassage } from './passage-index-repository.js';
import type {
  DocumentJobRepository,
  DocumentRecord,
  JobLease,
  JobPassageSteps,
  JobRun,
  NewDocument,
  TakeBack,
} from './document-job-repository.js';

export interface DocumentJobRepositoryFixture {
  repo: DocumentJobRepository;
  /** A second repository over the same storage, as another process has it. */
  other: DocumentJobRepository;
  /** The backend's job steps (`JobPassageSteps`), each doing what `recorder` says: its calls recorded. */
  steps(recorder: StepRecorder): JobPassageSteps;
  close(): Promise<void>;
}

/** The passage index's part of the repository's transactions, as calls recorded (and a swap that can be made to fail). */
export class StepRecorder {
  calls: string[] = [];
  failSwap = false;
  /** Fails the swap of this document only (a batch whose second document cannot be stored). */
  failSwapOf: string | null = null;
  swapIn(run: JobRun): number {
    this.calls.push(`swapIn ${run.space}/${run.id}/${run.runId}`);
    if (this.failSwap) throw new Error('swap failed');
    return 7;
  }
  swapInPrepared(run: JobRun, passages: readonly unknown[]): number {
    this.calls.push(`swapInPrepared ${run.space}/${run.id}/${run.runId} ${passages.length}`);
    if (this.failSwap || this.failSwapOf === run.id) throw new Error('swap failed');
    return passages.length;
  }
  hideDocument(space: string, id: string): void {
    this.calls.push(`hide ${space}/${id}`);
  }
  abandonDocumentRuns(space: string, id: string): void {
    this.calls.push(`abandon ${space}/${id}`);
  }
  abandonOrphanRuns(): void {
    this.calls.push('orphans');
  }
  deleteDocument(space: string, id: string): void {
    this.calls.push(`delete ${space}/${id}`);
  }
}

const AT = '2026-01-01T00:00:00.000Z';
/** A passage as the worker prepares it (what the steps store; the recorder only counts them). */
const PREPARED: IndexedPassage = {
  ord: 0,
  page: null,
  headings: [],
  text: 'Texto.',
  ocr: false,
  headingTerms: '',
  terms: 'texto',
};
const NOW = Date.parse(AT);
const file = (name: string, bytes = 10): NewDocument => ({
  name,
  mediaType: 'text/plain',
  format: 'text',
  bytes,
  sha256: null,
  path: `originales/${name}`,
});
const lease = (owner: string, leaseMs = 30_000): JobLease => ({
  owner,
  at: AT,
  deadlineAt: '2026-01-01T00:10:00.000Z',
  leaseUntil: NOW + leaseMs,
});
const takeBack = (owner: string, now: number, overrides: Partial<TakeBack> = {}): TakeBack => ({
  owner,
  now,
  at: new Date(now).toISOString(),
  maxAttempts: 3,
  failure: { code: 'interrumpido', reason: 'Se interrumpió.' },
  ownerIsGone: () => false,
  orphans: false,
  ...overrides,
});
const ready = { chars: 100, pages: null, lang: 'es', title: null, encoding: 'utf-8', embedModel: null };

export function documentJobRepositoryContract(name: string, make: () => Promise<DocumentJobRepositoryFixture>): void {
  const withRepo = (title: string, body: (f: DocumentJobRepositoryFixture) => Promise<void>) =>
    test(`${name}: ${title}`, async () => {
      const fixture = await make();
      try {
        await body(fixture);
      } finally {
        await fixture.close();
      }
    });

  withRepo('a new name is recorded queued; the same name replaces it: same id, next version', async (f) => {
    const { repo } = f;
    const first = await repo.submit('s', file('a.txt'), 'id-1', AT);
    assert.equal(first.replaced, false);
    assert.deepEqual(
      [first.document.id, first.document.state, first.document.version, first.document.progress],
      ['id-1', 'queued', 1, 0],
    );
    const second = await repo.submit('s', file('a.txt', 20), 'id-2', AT);
    assert.equal(second.replaced, true);
    assert.deepEqual([second.document.id, second.document.version, second.document.bytes], ['id-1', 2, 20]);
    assert.equal((await repo.getByName('s', 'a.txt'))?.id, 'id-1');
    assert.equal(await repo.get('otro', 'id-1'), null, 'records are per space');
    assert.equal((await repo.list('s', { limit: 10, offset: 0 })).total, 1);
    assert.equal(await repo.hasQueued(), true);
  });

  withRepo("a page's documents are read at once, within their space only; unknown ids are left out", async (f) => {
    const { repo } = f;
    for (const n of [1, 2, 3]) await repo.submit('s', file(`${n}.txt`), `id-${n}`, AT);
    await repo.submit('otro', file('4.txt'), 'id-4', AT);
    const ids = (docs: { id: string }[]) => docs.map((d) => d.id).sort();
    assert.deepEqual(ids(await repo.getMany('s', ['id-3', 'id-1', 'nada', 'id-4'])), ['id-1', 'id-3']);
    assert.deepEqual((await repo.getMany('s', ['id-2']))[0]?.name, '2.txt');
    assert.deepEqual(await repo.getMany('s', []), []);
  });

  withRepo('two claimers never get the same job, and every queued job is claimed once', async (f) => {
    const { repo, other } = f;
    for (let i = 0; i < 20; i++) await repo.submit(`s${i % 3}`, file(`d${i}.txt`), `id-${i}`, AT);
    const claimed: string[] = [];
    const claimAll = async (r: DocumentJobRepository, owner: string) => {
      for (let job = await r.claimNext(lease(owner)); job; job = await r.claimNext(lease(owner))) {
        assert.equal(job.state, 'processing');
        assert.equal(job.leaseOwner, owner);
        assert.equal(job.attempts, 1);
        claimed.push(job.id);
      }
    };
    await Promise.all([claimAll(repo, 'p1'), claimAll(other, 'p2'), claimAll(repo, 'p3')]);
    assert.equal(claimed.length, 20);
    assert.equal(new Set(claimed).size, 20);
    assert.equal(await repo.hasQueued(), false);
  });

  withRepo('spaces take turns: the space served longest ago goes first', async (f) => {
    const { repo } = f;
    const queued = [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['b', 'b1'],
    ] as const;
    for (const [i, [space, n]] of queued.entries())
      await repo.submit(space, file(`${n}.txt`), n, new Date(NOW + i).toISOString());
    const order: string[] = [];
    for (let job = await repo.claimNext(lease('p')); job; job = await repo.claimNext(lease('p'))) order.push(job.id);
    assert.deepEqual(order, ['a1', 'b1', 'a2', 'a3']);
  });

  withRepo('a live lease is never taken back; an expired one is, once, and its runs are abandoned', async (f) => {
    const { repo, other } = f;
    await repo.submit('s', file('a.txt'), 'id-1', AT);
    const job = (await repo.claimNext(lease('vivo', 1000)))!;
    const rec = new StepRecorder();
    const steps = f.steps(rec);
    assert.deepEqual(await other.takeBackLost(takeBack('otro', NOW + 500), steps), { requeued: 0, failed: 0 });
    assert.equal((await repo.get('s', 'id-1'))?.leaseOwner, 'vivo');
    // A renewed lease holds past its first term.
    assert.deepEqual(await repo.renewLeases('vivo', NOW + 5000), [{ space: 's', id: 'id-1', version: 1 }]);
    assert.deepEqual(await other.takeBackLost(takeBack('otro', NOW + 2000), steps), { requeued: 0, failed: 0 });
    // Its owner is gone: taken back at once, live lease or not.
    const gone = takeBack('otro', NOW + 2000, { ownerIsGone: (o) => o === 'vivo' });
    assert.deepEqual(await other.takeBackLost(gone, steps), { requeued: 1, failed: 0 });
    assert.deepEqual(rec.calls, ['abandon s/id-1']);
    const back = (await repo.get('s', 'id-1'))!;
    assert.deepEqual([back.state, back.leaseOwner, back.leaseUntil], ['queued', null, null]);
    // The process that lost it can no longer write its job.
    assert.equal(await repo.progress(job, 'vivo', 0.5, 'analizando', AT), false);
    assert.equal(await repo.markReady({ ...job, runId: 1 }, 'vivo', ready, AT, steps), false);

    // Expired: taken back by whoever looks after the lease ran out, and only once.
    await other.claimNext(lease('otro', 1000));
    assert.deepEqual(await repo.takeBackLost(takeBack('p3', NOW + 1000), steps), { requeued: 1, failed: 0 });
    assert.deepEqual(await other.takeBackLost(takeBack('p4', NOW + 1000), steps), { requeued: 0, failed: 0 });
    // Past its attempts a lost job fails instead.
    await repo.claimNext(lease('p5', 0));
    const last = takeBack('p6', NOW, { maxAttempts: 3, orphans: true });
    assert.deepEqual(await repo.takeBackLost(last, steps), { requeued: 0, failed: 1 });
    const failed = (await repo.get('s', 'id-1'))!;
    assert.deepEqual([failed.state, failed.errorCode, failed.attempts], ['failed', 'interrumpido', 3]);
    assert.equal(rec.calls.at(-1), 'orphans');
  });

  withRepo('a lease-holder never takes back its own live jobs', async (f) => {
    const { repo } = f;
    await repo.submit('s', file('a.txt'), 'id-1', AT);
    await repo.claimNext(lease('yo', 1000));
    assert.deepEqual(await repo.takeBackLost(takeBack('yo', NOW + 10), f.steps(new StepRecorder())), {
      requeued: 0,
      failed: 0,
    });
  });

  withRepo('the swap is all or nothing: a failed passage swap leaves the job processing', async (f) => {
    const { repo } = f;
    await repo.submit('s', file('a.txt'), 'id-1', AT);
    const job = { ...(await repo.claimNext(lease('p')))!, runId: 42 };
    const rec = new StepRecorder();
    const steps = f.steps(rec);
    rec.failSwap = true;
    await assert.rejects(repo.markReady(job, 'p', ready, AT, steps), /swap failed/);
    const still = (await repo.get('s', 'id-1'))!;
    assert.deepEqual([still.state, still.passages, still.leaseOwner], ['processing', 0, 'p']);
    // Another owner's commit swaps nothing.
    rec.failSwap = false;
    rec.calls = [];
    assert.equal(await repo.markReady(job, 'intruso', ready, AT, steps), false);
    assert.deepEqual(rec.calls, []);
    assert.equal(await repo.markReady(job, 'p', ready, AT, steps), true);
    assert.deepEqual(rec.calls, ['swapIn s/id-1/42']);
    const done = (await repo.get('s', 'id-1'))!;
    assert.deepEqual(
      [done.state, done.progress, done.passages, done.chars, done.lang, done.leaseOwner],
      ['ready', 1, 7, 100, 'es', null],
    );
  });

  withRepo(
    'a batch prepared whole is marked ready in one transaction: all or nothing, each only by its owner',
    async (f) => {
      const { repo } = f;
      for (const n of [1, 2, 3]) await repo.submit('s', file(`${n}.html`), `id-${n}`, AT);
      const jobs: (DocumentRecord & JobRun)[] = [];
      for (const n of [1, 2, 3]) jobs.push({ ...(await repo.claimNext(lease('p')))!, runId: 50 + n });
      const items = jobs.map((job, i) => ({
        job,
        fields: ready,
        prepared: [PREPARED, { ...PREPARED, ord: 1 }].slice(i % 2),
      }));
      const rec = new StepRecorder();
      const steps = f.steps(rec);
      const states = async () => Promise.all(jobs.map(async (j) => (await repo.get('s', j.id))?.state));
      // The second document cannot be stored: none of the three is.
      rec.failSwapOf = jobs[1]!.id;
      await assert.rejects(repo.markReadyMany(items, 'p', AT, steps), /swap failed/);
      assert.deepEqual(await states(), ['processing', 'processing', 'processing']);
      // A job that no longer owns its document (replaced meanwhile: another version) is skipped; the others commit.
      rec.failSwapOf = null;
      rec.calls = [];
      const stale = { ...items[1]!, job: { ...items[1]!.job, version: items[1]!.job.version + 1 } };
      assert.deepEqual(await repo.markReadyMany([items[0]!, stale, items[2]!], 'p', AT, steps), [true, false, true]);
      assert.deepEqual(rec.calls, [`swapInPrepared s/${jobs[0]!.id}/51 2`, `swapInPrepared s/${jobs[2]!.id}/53 2`]);
      assert.deepEqual(await states(), ['ready', 'processing', 'ready']);
      assert.equal((await repo.get('s', jobs[0]!.id))?.passages, 2);
      assert.deepEqual(await repo.markReadyMany([items[1]!], 'intruso', AT, steps), [false]);
      assert.deepEqual(await repo.markReadyMany([], 'p', AT, steps), []);
    },
  );

  withRepo(
    'passages prepared whole are stored in the ready transaction, all or nothing, only by the owner',
    async (f) => {
      const { repo } = f;
      await repo.submit('s', file('a.html'), 'id-1', AT);
      const job = { ...(await repo.claimNext(lease('p')))!, runId: 43 };
      const rec = new StepRecorder();
      const steps = f.steps(rec);
      const prepared = [PREPARED, { ...PREPARED, ord: 1 }];
      rec.failSwap = true;
      await assert.rejects(repo.markReady(job, 'p', ready, AT, steps, prepared), /swap failed/);
      assert.equal((await repo.get('s', 'id-1'))?.state, 'processing');
      rec.failSwap = false;
      rec.calls = [];
      assert.equal(await repo.markReady(job, 'intruso', ready, AT, steps, prepared), false);
      assert.deepEqual(rec.calls, []);
      assert.equal(await repo.markReady(job, 'p', ready, AT, steps, prepared), true);
      assert.deepEqual(rec.calls, ['swapInPrepared s/id-1/43 2'], 'no stored run swapped in');
      const done = (await repo.get('s', 'id-1'))!;
      assert.deepEqual([done.state, done.passages, done.leaseOwner], ['ready', 2, null]);
    },
  );

  withRepo('progress is written only by the owner; replacing or removing a document stops its job', async (f) => {
    const { repo, other } = f;
    await repo.submit('s', file('a.txt'), 'id-1', AT);
    const job = (await repo.claimNext(lease('p')))!;
    assert.equal(await repo.progress(job, 'p', 0.3, 'analizando', AT), true);
    assert.deepEqual(
      [(await repo.get('s', 'id-1'))?.progress, (await repo.get('s', 'id-1'))?.stage],
      [0.3, 'analizando'],
    );
    assert.equal(await repo.progress(job, 'otro', 0.4, 'analizando', AT), false);
    // Cancelled by another process (a new version): the worker's next write says so, and its lease list drops it.
    await other.submit('s', file('a.txt', 30), 'id-x', AT);
    assert.equal(await repo.progress(job, 'p', 0.5, 'analizando', AT), false);
    assert.deepEqual(await repo.renewLeases('p', NOW + 60_000), []);
    assert.equal(await repo.fail(job, 'p', { code: 'corrupto', reason: 'x' }, AT, f.steps(new StepRecorder())), false);
    // Removed by another process while processing.
    const v2 = (await repo.claimNext(lease('p')))!;
    assert.equal(v2.version, 2);
    const rec = new StepRecorder();
    const steps = f.steps(rec);
    await other.remove('s', 'id-1', steps);
    // SQLite hides them for the purge; PostgreSQL, whose foreign key is enforced, deletes them with the record.
    assert.equal(rec.calls.length, 1);
    assert.match(rec.calls[0]!, /^(hide|delete) s\/id-1$/);
    assert.equal(await repo.get('s', 'id-1'), null);
    assert.equal(await repo.progress(v2, 'p', 0.5, 'analizando', AT), false);
  });

  withRepo('a failure hides the document’s passages with it; a stopping worker re-queues its job', async (f) => {
    const { repo } = f;
    await repo.submit('s', file('a.txt'), 'id-1', AT);
    await repo.submit('s', file('b.txt'), 'id-2', AT);
    const a = (await repo.claimNext(lease('p')))!;
    const rec = new StepRecorder();
    const steps = f.steps(rec);
    assert.equal(await repo.fail(a, 'p', { code: 'corrupto', reason: 'El archivo está dañado.' }, AT, steps), true);
    assert.deepEqual(rec.calls, ['hide s/id-1']);
    const failed = (await repo.get('s', 'id-1'))!;
    assert.deepEqual(
      [failed.state, failed.errorCode, failed.reason],
      ['failed', 'corrupto', 'El archivo está dañado.'],
    );
    const b = (await repo.claimNext(lease('p')))!;
    await repo.requeue(b, 'p', AT);
    assert.deepEqual(
      [(await repo.get('s', 'id-2'))?.state, (await repo.get('s', 'id-2'))?.leaseOwner],
      ['queued', null],
    );
  });

  withRepo('ready documents made with another embedding model are queued again', async (f) => {
    const { repo } = f;
    await repo.submit('s', file('a.txt'), 'id-1', AT);
    const job = { ...(await repo.claimNext(lease('p')))!, runId: 1 };
    await repo.markReady(job, 'p', { ...ready, embedModel: 'modelo-1' }, AT, f.steps(new StepRecorder()));
    assert.equal(await repo.requeueStaleVectors('modelo-1', AT), 0);
    assert.equal(await repo.requeueStaleVectors('modelo-2', AT), 1);
    assert.equal((await repo.get('s', 'id-1'))?.state, 'queued');
  });

  withRepo('a space’s documents are listed in upload order and can be forgotten with its turn', async (f) => {
    const { repo } = f;
    await repo.submit('s', file('b.txt'), 'id-b', '2026-01-01T00:00:01.000Z');
    await repo.submit('s', file('a.txt'), 'id-a', '2026-01-01T00:00:02.000Z');
    await repo.submit('t', file('c.txt'), 'id-c', AT);
    assert.deepEqual(
      (await repo.all('s')).map((d) => d.name),
      ['b.txt', 'a.txt'],
    );
    const page = await repo.list('s', { limit: 1, offset: 1 });
    assert.deepEqual([page.total, page.documents.map((d) => d.name)], [2, ['a.txt']]);
    assert.deepEqual((await repo.ids('s')).sort(), ['id-a', 'id-b']);
    // Turns: t (its document waited longest) then s; a forgotten s is served as never served, before t again.
    assert.equal((await repo.claimNext(lease('p')))?.id, 'id-c');
    assert.equal((await repo.claimNext(lease('p')))?.id, 'id-b');
    await repo.submit('t', file('d.txt'), 'id-d', '2026-01-01T00:00:03.000Z');
    await repo.forgetTurn('s');
    assert.equal((await repo.claimNext(lease('p')))?.id, 'id-a');
  });
}

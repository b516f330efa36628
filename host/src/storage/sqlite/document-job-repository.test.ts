import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentJobRepositoryContract, type StepRecorder } from '../port/document-job-repository.contract.js';
import { SQLITE_NAMED_ORIGINALS, SqliteDocumentJobRepository } from './document-job-repository.js';
import { migratedDatabaseFile } from './migrated-file.js';
import type { SqliteJobPassageSteps } from './passage-index/sqlite-job-steps.js';

const AT = '2026-01-01T00:00:00.000Z';

/** SQLite's synchronous steps doing what the recorder records. */
const recordedSteps = (r: StepRecorder): SqliteJobPassageSteps => ({
  backend: 'sqlite',
  swapIn: (run) => r.swapIn(run),
  swapInPrepared: (run, passages) => r.swapInPrepared(run, passages),
  hideDocument: (space, id) => r.hideDocument(space, id),
  abandonDocumentRuns: (space, id) => r.abandonDocumentRuns(space, id),
  abandonOrphanRuns: () => r.abandonOrphanRuns(),
  deleteDocument: (space, id) => r.deleteDocument(space, id),
});

documentJobRepositoryContract('SQLite', async () => {
  const { db, second, close } = await migratedDatabaseFile();
  return {
    repo: new SqliteDocumentJobRepository(db),
    other: new SqliteDocumentJobRepository(second),
    steps: recordedSteps,
    close,
  };
});

test("SQLite: another backend's passage steps are refused, before anything is written", async () => {
  const { db, close } = await migratedDatabaseFile();
  try {
    const repo = new SqliteDocumentJobRepository(db);
    await repo.submit(
      's',
      { name: 'a.txt', mediaType: 'text/plain', format: 'text', bytes: 1, sha256: null, path: 'a' },
      'id-1',
      AT,
    );
    const job = (await repo.claimNext({ owner: 'p', at: AT, deadlineAt: AT, leaseUntil: Date.parse(AT) + 60_000 }))!;
    const ready = { chars: 1, pages: null, lang: null, title: null, encoding: null, embedModel: null };
    await assert.rejects(
      repo.markReady({ ...job, runId: 1 }, 'p', ready, AT, { backend: 'postgresql' }),
      /de postgresql no pueden ejecutarse en una transacción de SQLite/,
    );
    assert.equal((await repo.get('s', 'id-1'))?.state, 'processing');
  } finally {
    await close();
  }
});

test('SQLite: which originals documents name is read by the path index, one probe per name asked', async () => {
  const { db, close } = await migratedDatabaseFile();
  try {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${SQLITE_NAMED_ORIGINALS}`)
      .all('[]')
      .map((r) => (r as { detail: string }).detail);
    assert.ok(
      plan.some((d) => d.includes('INDEX cerebro_documents_path (path=?)')),
      plan.join('\n'),
    );
  } finally {
    await close();
  }
});

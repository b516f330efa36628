// A job's PostgreSQL passage steps run on the document repository's own
// transaction: they commit with the document's state, or roll back with it; a removed document's passages are deleted
// with it (their foreign key forbids leaving them), and its vectors go once that has committed.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { JobRun, NewDocument } from '../port/document-job-repository.js';
import { PgDocumentJobRepository } from './pg-document-jobs.js';
import type { PgJobPassageSteps, StepClient } from './pg-job-passage-steps.js';
import { PgVectorRepositories } from './pg-vectors.js';
import { dropMigratedTemplate, migratedPgDatabase } from './testing/migrated-pg-database.js';
import { pgUnavailable } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;
after(dropMigratedTemplate);

const AT = '2026-01-01T00:00:00.000Z';
const file: NewDocument = { name: 'a.txt', mediaType: 'text/plain', format: 'text', bytes: 1, sha256: null, path: 'a' };
const lease = { owner: 'p', at: AT, deadlineAt: AT, leaseUntil: Date.parse(AT) + 60_000 };
const ready = { chars: 1, pages: null, lang: 'es', title: null, encoding: null, embedModel: null };

/** Steps that write what they did through the client they are given (a change version per step), and can fail. */
class SqlSteps implements PgJobPassageSteps {
  readonly backend = 'postgresql';
  failSwap = false;
  private async mark(db: StepClient, name: string): Promise<void> {
    await db.query('INSERT INTO change_versions (name, version) VALUES ($1, 1)', [name]);
  }
  async swapIn(db: StepClient, run: JobRun): Promise<number> {
    await this.mark(db, `swap ${run.runId}`);
    if (this.failSwap) throw new Error('swap failed');
    return 3;
  }
  async swapInPrepared(db: StepClient, run: JobRun, passages: readonly unknown[]): Promise<number> {
    await this.mark(db, `swap prepared ${run.runId}`);
    if (this.failSwap) throw new Error('swap failed');
    return passages.length;
  }
  async hideDocument(db: StepClient, space: string, id: string): Promise<void> {
    await this.mark(db, `hide ${space}/${id}`);
  }
  async abandonDocumentRuns(db: StepClient, space: string, id: string): Promise<void> {
    await this.mark(db, `abandon ${space}/${id}`);
  }
  async abandonOrphanRuns(db: StepClient): Promise<void> {
    await this.mark(db, 'orphans');
  }
  async deleteDocument(db: StepClient, space: string, id: string): Promise<number[]> {
    const r = await db.query<{ id: number }>(
      'DELETE FROM cerebro_passages WHERE space = $1 AND document_id = $2 RETURNING id',
      [space, id],
    );
    return r.rows.map((row) => row.id);
  }
}

describe('PostgreSQL document jobs with the passage index’s steps', { skip }, () => {
  test('a swap commits with ready, and rolls back with a failed commit', async (t) => {
    const db = await migratedPgDatabase();
    t.after(db.close);
    const steps = new SqlSteps();
    const repo = new PgDocumentJobRepository(db.pool);
    await repo.submit('s', file, 'id-1', AT);
    const job = { ...(await repo.claimNext(lease))!, runId: 9 };
    await assert.rejects(
      repo.markReady(job, 'p', ready, AT, { backend: 'sqlite' }),
      /de sqlite no pueden ejecutarse en una transacción de PostgreSQL/,
      "another backend's steps are refused",
    );
    steps.failSwap = true;
    await assert.rejects(repo.markReady(job, 'p', ready, AT, steps), /swap failed/);
    const marks = async () =>
      (await db.pool.query<{ name: string }>('SELECT name FROM change_versions ORDER BY name')).rows.map((r) => r.name);
    assert.deepEqual(await marks(), [], "the step's write rolled back with the job's transaction");
    assert.equal((await repo.get('s', 'id-1'))?.state, 'processing');
    steps.failSwap = false;
    assert.equal(await repo.markReady(job, 'p', ready, AT, steps), true);
    assert.deepEqual(await marks(), ['swap 9']);
    assert.deepEqual([(await repo.get('s', 'id-1'))?.state, (await repo.get('s', 'id-1'))?.passages], ['ready', 3]);
  });

  test('a removed document takes its passages and then their vectors with it', async (t) => {
    const db = await migratedPgDatabase();
    t.after(db.close);
    const vectors = new PgVectorRepositories(db.pool);
    const repo = new PgDocumentJobRepository(db.pool, {
      passagesDeleted: (ids) => vectors.deletePassages(ids),
    });
    await repo.submit('s', file, 'id-1', AT);
    const passage = await db.pool.query<{ id: number }>(
      "INSERT INTO cerebro_passages (space, document_id, ord, text) VALUES ('s', 'id-1', 0, 'hola') RETURNING id",
    );
    const id = passage.rows[0]!.id;
    await vectors.forDimensions(2).put('s', [id], [new Float32Array([1, 0])]);
    await repo.remove('s', 'id-1', new SqlSteps());
    assert.equal(await repo.get('s', 'id-1'), null);
    assert.equal((await db.pool.query('SELECT 1 FROM cerebro_passages')).rowCount, 0);
    assert.deepEqual(await vectors.forDimensions(2).nearest('s', new Float32Array([1, 0]), 5), []);
  });

  test('a removal waits for a batch of passages being stored for the document, and deletes it too', async (t) => {
    const db = await migratedPgDatabase();
    t.after(db.close);
    const repo = new PgDocumentJobRepository(db.pool);
    await repo.submit('s', file, 'id-1', AT);
    // A worker's batch, not committed yet when the removal starts.
    const worker = await db.pool.connect();
    try {
      await worker.query('BEGIN');
      await worker.query("INSERT INTO cerebro_passages (space, document_id, ord, text) VALUES ('s', 'id-1', 0, 'a')");
      const removing = repo.remove('s', 'id-1', new SqlSteps());
      await new Promise((r) => setTimeout(r, 100));
      await worker.query('COMMIT');
      await removing;
    } finally {
      worker.release();
    }
    assert.equal(await repo.get('s', 'id-1'), null);
    assert.equal((await db.pool.query('SELECT 1 FROM cerebro_passages')).rowCount, 0, 'the batch went with it');
  });
});

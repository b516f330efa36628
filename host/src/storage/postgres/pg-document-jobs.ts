// Document records and their indexing jobs on PostgreSQL: storage/sqlite/document-job-repository.ts's statements,
// for hosts sharing one server. A claim locks the job it takes with FOR UPDATE SKIP LOCKED, so workers claiming at
// once each get a different job without waiting for one another; every later write of a job names its version and
// owner, so a job taken back, replaced or removed by another host can never be written again by the one that lost it.
//
// Passage changes: the passage index's PostgreSQL steps (pg-job-passage-steps.ts) run on the client of the
// repository's own transaction, so a swap commits with the document's `ready`, or rolls back with it.
import type {
  DocumentJobRepository,
  DocumentRecord,
  Failure,
  JobLease,
  JobPassageSteps,
  JobRef,
  JobRun,
  NewDocument,
  ReadyBatchItem,
  ReadyFields,
  TakeBack,
} from '../port/document-job-repository.js';
import { fitsBatch } from '../port/document-job-repository.js';
import { type DocumentRow, toRecord } from '../sqlite/document-row.js';
import { inTransaction, type Pool, type PoolClient } from './pg-driver.js';
import { pgSteps } from './pg-job-passage-steps.js';
import type { IndexedPassage } from '../port/passage-index-repository.js';

/** Upload order: by time, then by name compared by code point (SQLite's BINARY), whatever the database's collation. */
const UPLOAD_ORDER = 'ORDER BY created_at, name COLLATE "C"';

// The job of a version while it still is `owner`'s processing job: $1 space, $2 id, $3 version, $4 owner.
const OWNED = "space = $1 AND id = $2 AND version = $3 AND state = 'processing' AND lease_owner = $4";

export interface PgDocumentJobOptions {
  /** Told the ids of passages deleted with a removed document, after the removal committed (their vectors go). */
  passagesDeleted?: (ids: readonly number[]) => Promise<void>;
}

export class PgDocumentJobRepository implements DocumentJobRepository {
  constructor(
    private readonly pool: Pool,
    private readonly options: PgDocumentJobOptions = {},
  ) {}

  get open(): boolean {
    return !this.pool.ending;
  }

  private async rows(db: Pool | PoolClient, sql: string, args: unknown[]): Promise<DocumentRecord[]> {
    return (await db.query<DocumentRow>(sql, args)).rows.map(toRecord);
  }

  async get(space: string, id: string): Promise<DocumentRecord | null> {
    return (
      (await this.rows(this.pool, 'SELECT * FROM cerebro_documents WHERE space = $1 AND id = $2', [space, id]))[0] ??
      null
    );
  }

  async getMany(space: string, ids: readonly string[]): Promise<DocumentRecord[]> {
    if (ids.length === 0) return [];
    return this.rows(this.pool, 'SELECT * FROM cerebro_documents WHERE space = $1 AND id = ANY($2::text[])', [
      space,
      ids,
    ]);
  }

  async getByName(space: string, name: string): Promise<DocumentRecord | null> {
    const sql = 'SELECT * FROM cerebro_documents WHERE space = $1 AND name = $2';
    return (await this.rows(this.pool, sql, [space, name]))[0] ?? null;
  }

  async list(
    space: string,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; documents: DocumentRecord[] }> {
    const [count, documents] = await Promise.all([
      this.pool.query<{ n: number }>('SELECT count(*) AS n FROM cerebro_documents WHERE space = $1', [space]),
      this.rows(this.pool, `SELECT * FROM cerebro_documents WHERE space = $1 ${UPLOAD_ORDER} LIMIT $2 OFFSET $3`, [
        space,
        page.limit,
        page.offset,
      ]),
    ]);
    return { total: count.rows[0]!.n, documents };
  }

  async all(space: string): Promise<DocumentRecord[]> {
    return this.rows(this.pool, `SELECT * FROM cerebro_documents WHERE space = $1 ${UPLOAD_ORDER}`, [space]);
  }

  async hasQueued(): Promise<boolean> {
    return (
      ((await this.pool.query("SELECT 1 FROM cerebro_documents WHERE state = 'queued' LIMIT 1")).rowCount ?? 0) > 0
    );
  }

  async submit(
    space: string,
    file: NewDocument,
    newId: string,
    at: string,
  ): Promise<{ document: DocumentRecord; replaced: boolean }> {
    // One statement: two hosts storing the same name at once make one record, the second a replacement of the first
    // (the unique name's row lock orders them). `xmax <> 0` tells an updated row from an inserted one.
    const r = await this.pool.query<DocumentRow & { replaced: boolean }>(
      `INSERT INTO cerebro_documents (space, id, name, media_type, format, bytes, sha256, path, state, progress,
         created_at, updated_at, queued_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', 0, $9, $9, $9)
       ON CONFLICT (space, name) DO UPDATE SET media_type = excluded.media_type, format = excluded.format,
         bytes = excluded.bytes, sha256 = excluded.sha256, path = excluded.path, state = 'queued', progress = 0,
         stage = NULL, error_code = NULL, reason = NULL, attempts = 0, version = cerebro_documents.version + 1,
         updated_at = excluded.updated_at, queued_at = excluded.queued_at, started_at = NULL, finished_at = NULL,
         deadline_at = NULL
       RETURNING *, (xmax <> 0) AS replaced`,
      [space, newId, file.name, file.mediaType, file.format, file.bytes, file.sha256, file.path, at],
    );
    const row = r.rows[0]!;
    return { document: toRecord(row), replaced: row.replaced };
  }

  async claimNext(lease: JobLease): Promise<DocumentRecord | null> {
    return inTransaction(this.pool, async (client) => {
      // Turns: the space never served or served longest ago first (ties: its oldest waiting document), then that
      // space's oldest queued document. A job another claimer holds locked is skipped, not waited for.
      const next = await client.query<{ space: string; id: string; version: number; bytes: number; format: string }>(
        `SELECT d.space, d.id, d.version, d.bytes, d.format FROM cerebro_documents d LEFT JOIN cerebro_queue_turns t ON t.space = d.space
         WHERE d.state = 'queued'
         ORDER BY t.served IS NOT NULL, t.served,
           (SELECT min(w.queued_at) FROM cerebro_documents w WHERE w.space = d.space AND w.state = 'queued'),
           d.space, d.queued_at, d.created_at, d.id
         LIMIT 1 FOR UPDATE OF d SKIP LOCKED`,
      );
      const job = next.rows[0];
      if (!job || (lease.only && !fitsBatch({ bytes: Number(job.bytes), format: job.format }, lease.only))) return null;
      const claimed = await this.rows(
        client,
        `UPDATE cerebro_documents SET state = 'processing', progress = 0.05, stage = 'extrayendo',
           attempts = attempts + 1, started_at = $1, deadline_at = $2, updated_at = $1, lease_owner = $3, lease_until = $4
         WHERE space = $5 AND id = $6 AND state = 'queued' AND version = $7 RETURNING *`,
        [lease.at, lease.deadlineAt, lease.owner, lease.leaseUntil, job.space, job.id, job.version],
      );
      if (!claimed[0]) return null;
      await client.query(
        `INSERT INTO cerebro_queue_turns (space, served)
         VALUES ($1, (SELECT coalesce(max(served), 0) + 1 FROM cerebro_queue_turns))
         ON CONFLICT (space) DO UPDATE SET served = excluded.served`,
        [job.space],
      );
      return claimed[0];
    });
  }

  async progress(job: JobRef, owner: string, value: number, stage: string, at: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE cerebro_documents SET progress = $5, stage = $6, updated_at = $7 WHERE ${OWNED}`,
      [job.space, job.id, job.version, owner, value, stage, at],
    );
    return r.rowCount === 1;
  }

  async renewLeases(owner: string, until: number): Promise<JobRef[]> {
    const r = await this.pool.query<JobRef>(
      `UPDATE cerebro_documents SET lease_until = $1 WHERE lease_owner = $2 AND state = 'processing'
       RETURNING space, id, version`,
      [until, owner],
    );
    return r.rows;
  }

  async takeBackLost(request: TakeBack, passages: JobPassageSteps): Promise<{ requeued: number; failed: number }> {
    const { owner, now, at, failure } = request;
    const steps = pgSteps(passages);
    return inTransaction(this.pool, async (client) => {
      let requeued = 0;
      let failed = 0;
      // Locked, not skipped: a row another host is writing right now is looked at once that write is done.
      const candidates = await this.rows(
        client,
        `SELECT * FROM cerebro_documents WHERE state = 'processing'
         AND (coalesce(lease_until, 0) <= $1 OR lease_owner IS DISTINCT FROM $2) FOR UPDATE`,
        [now, owner],
      );
      for (const doc of candidates) {
        const expired = (doc.leaseUntil ?? 0) <= now;
        if (!expired && (doc.leaseOwner === owner || !request.ownerIsGone(doc.leaseOwner))) continue;
        const lost = [doc.space, doc.id, doc.version, doc.leaseOwner];
        const still =
          "space = $1 AND id = $2 AND version = $3 AND state = 'processing' AND lease_owner IS NOT DISTINCT FROM $4";
        if (doc.attempts >= request.maxAttempts) {
          const r = await client.query(
            `UPDATE cerebro_documents SET state = 'failed', stage = NULL, error_code = $5, reason = $6, finished_at = $7,
               updated_at = $7, lease_owner = NULL, lease_until = NULL WHERE ${still}`,
            [...lost, failure.code, failure.reason, at],
          );
          if (r.rowCount !== 1) continue;
          failed++;
        } else {
          const r = await client.query(
            `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = $5,
               lease_owner = NULL, lease_until = NULL WHERE ${still}`,
            [...lost, at],
          );
          if (r.rowCount !== 1) continue;
          requeued++;
        }
        await steps.abandonDocumentRuns(client, doc.space, doc.id);
      }
      if (request.orphans) await steps.abandonOrphanRuns(client);
      return { requeued, failed };
    });
  }

  async requeueStaleVectors(model: string, at: string): Promise<number> {
    const r = await this.pool.query(
      `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = $1, queued_at = $1
       WHERE state = 'ready' AND coalesce(embed_model, '') <> $2`,
      [at, model],
    );
    return r.rowCount ?? 0;
  }

  async markReady(
    job: JobRef & JobRun,
    owner: string,
    fields: ReadyFields,
    at: string,
    passages: JobPassageSteps,
    prepared?: readonly IndexedPassage[],
  ): Promise<boolean> {
    const steps = pgSteps(passages);
    return inTransaction(this.pool, (client) => this.readyIn(client, job, owner, fields, at, steps, prepared));
  }

  async markReadyMany(
    items: readonly ReadyBatchItem[],
    owner: string,
    at: string,
    passages: JobPassageSteps,
  ): Promise<boolean[]> {
    const steps = pgSteps(passages);
    return inTransaction(this.pool, async (client) => {
      const done: boolean[] = [];
      for (const { job, fields, prepared } of items)
        done.push(await this.readyIn(client, job, owner, fields, at, steps, prepared));
      return done;
    });
  }

  /** Within `client`'s transaction: swaps the job's passages in and marks its document ready, if the job owns it. */
  private async readyIn(
    client: PoolClient,
    job: JobRef & JobRun,
    owner: string,
    fields: ReadyFields,
    at: string,
    steps: ReturnType<typeof pgSteps>,
    prepared?: readonly IndexedPassage[],
  ): Promise<boolean> {
    const owned = await client.query(`SELECT 1 FROM cerebro_documents WHERE ${OWNED} FOR UPDATE`, [
      job.space,
      job.id,
      job.version,
      owner,
    ]);
    if (!owned.rowCount) return false;
    const count = prepared ? await steps.swapInPrepared(client, job, prepared) : await steps.swapIn(client, job);
    const { chars, pages, lang, title, encoding, embedModel } = fields;
    await client.query(
      `UPDATE cerebro_documents SET state = 'ready', progress = 1, stage = NULL, error_code = NULL, reason = NULL,
         passages = $5, chars = $6, pages = $7, lang = $8, title = $9, encoding = $10, embed_model = $11,
         finished_at = $12, updated_at = $12, lease_owner = NULL, lease_until = NULL
       WHERE ${OWNED}`,
      [job.space, job.id, job.version, owner, count, chars, pages, lang, title, encoding, embedModel, at],
    );
    return true;
  }

  async fail(job: JobRef, owner: string, failure: Failure, at: string, passages: JobPassageSteps): Promise<boolean> {
    const steps = pgSteps(passages);
    return inTransaction(this.pool, async (client) => {
      const r = await client.query(
        `UPDATE cerebro_documents SET state = 'failed', stage = NULL, error_code = $5, reason = $6, passages = 0,
           chars = 0, finished_at = $7, updated_at = $7, lease_owner = NULL, lease_until = NULL WHERE ${OWNED}`,
        [job.space, job.id, job.version, owner, failure.code, failure.reason, at],
      );
      if (r.rowCount !== 1) return false;
      await steps.hideDocument(client, job.space, job.id);
      return true;
    });
  }

  async requeue(job: JobRef, owner: string, at: string): Promise<void> {
    await this.pool.query(
      `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = $5, lease_owner = NULL,
         lease_until = NULL WHERE ${OWNED}`,
      [job.space, job.id, job.version, owner, at],
    );
  }

  /**
   * The passages go with the record (their foreign key is enforced), their vectors once that committed. The record
   * is locked first: a batch of passages a worker is storing for it commits before they are deleted (and one stored
   * later finds no record), so the deletion never meets a passage it did not see.
   */
  async remove(space: string, id: string, passages: JobPassageSteps): Promise<void> {
    const steps = pgSteps(passages);
    const deleted = await inTransaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM cerebro_documents WHERE space = $1 AND id = $2 FOR UPDATE', [space, id]);
      const ids = await steps.deleteDocument(client, space, id);
      await client.query('DELETE FROM cerebro_documents WHERE space = $1 AND id = $2', [space, id]);
      return ids;
    });
    if (deleted.length) await this.options.passagesDeleted?.(deleted);
  }

  async ids(space: string): Promise<string[]> {
    const r = await this.pool.query<{ id: string }>('SELECT id FROM cerebro_documents WHERE space = $1', [space]);
    return r.rows.map((row) => row.id);
  }

  async namedOriginals(stored: readonly string[]): Promise<string[]> {
    if (stored.length === 0) return [];
    const r = await this.pool.query<{ path: string }>(
      'SELECT DISTINCT path FROM cerebro_documents WHERE path = ANY($1::text[])',
      [stored],
    );
    return r.rows.map((row) => row.path);
  }

  async forgetTurn(space: string): Promise<void> {
    await this.pool.query('DELETE FROM cerebro_queue_turns WHERE space = $1', [space]);
  }
}

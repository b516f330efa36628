import type Database from 'better-sqlite3';
import { inject, injectable } from 'tsyringe';
import { SqliteDatabaseToken } from './database-token.js';
import type { SqliteDatabase } from '../database.js';
import { type DocumentRow, toRecord } from './document-row.js';
import { sqliteSteps } from './passage-index/sqlite-job-steps.js';
import type {
  DocumentJobRepository,
  DocumentReadsNow,
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
import { preparedOnUse } from './prepared-on-use.js';
import type { IndexedPassage } from '../port/passage-index-repository.js';

/** Which of a JSON array of stored originals a document names (one probe of `cerebro_documents_path` each). */
export const SQLITE_NAMED_ORIGINALS =
  'SELECT DISTINCT path FROM cerebro_documents WHERE path IN (SELECT value FROM json_each(?))';

/** Document records and their jobs in `cerebro_documents` and the queue's turns in `cerebro_queue_turns`. */
@injectable()
export class SqliteDocumentJobRepository implements DocumentJobRepository, DocumentReadsNow {
  private readonly stmt: Record<string, Database.Statement>;

  constructor(@inject(SqliteDatabaseToken) private readonly db: SqliteDatabase) {
    this.stmt = preparedOnUse({
      byId: () => db.prepare('SELECT * FROM cerebro_documents WHERE space = ? AND id = ?'),
      byName: () => db.prepare('SELECT * FROM cerebro_documents WHERE space = ? AND name = ?'),
      byIds: () =>
        db.prepare('SELECT * FROM cerebro_documents WHERE space = ? AND id IN (SELECT value FROM json_each(?))'),
      list: () =>
        db.prepare('SELECT * FROM cerebro_documents WHERE space = ? ORDER BY created_at, name LIMIT ? OFFSET ?'),
      all: () => db.prepare('SELECT * FROM cerebro_documents WHERE space = ? ORDER BY created_at, name'),
      count: () => db.prepare('SELECT count(*) FROM cerebro_documents WHERE space = ?').pluck(),
      insert: () =>
        db.prepare(
          `INSERT INTO cerebro_documents (space, id, name, media_type, format, bytes, sha256, path, state, progress,
           created_at, updated_at, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)`,
        ),
      requeueReplaced: () =>
        db.prepare(
          `UPDATE cerebro_documents SET media_type = ?, format = ?, bytes = ?, sha256 = ?, path = ?, state = 'queued',
           progress = 0, stage = NULL, error_code = NULL, reason = NULL, attempts = 0, version = version + 1,
           updated_at = ?, queued_at = ?, started_at = NULL, finished_at = NULL, deadline_at = NULL
         WHERE space = ? AND id = ?`,
        ),
      anyQueued: () => db.prepare("SELECT 1 FROM cerebro_documents WHERE state = 'queued' LIMIT 1").pluck(),
      // Turns: among the spaces with queued work, the one never served or served longest ago goes first (ties: the
      // oldest waiting document), so a space's backlog delays another space's next document by one job at most.
      nextSpace: () =>
        db
          .prepare(
            `SELECT q.space FROM (SELECT space, min(queued_at) AS first FROM cerebro_documents WHERE state = 'queued' GROUP BY space) q
         LEFT JOIN cerebro_queue_turns t ON t.space = q.space ORDER BY t.served IS NOT NULL, t.served, q.first LIMIT 1`,
          )
          .pluck(),
      nextInSpace: () =>
        db.prepare(
          "SELECT * FROM cerebro_documents WHERE state = 'queued' AND space = ? ORDER BY queued_at, rowid LIMIT 1",
        ),
      served: () =>
        db.prepare(
          `INSERT INTO cerebro_queue_turns (space, served) VALUES (?, (SELECT coalesce(max(served), 0) + 1 FROM cerebro_queue_turns))
         ON CONFLICT (space) DO UPDATE SET served = excluded.served`,
        ),
      forgetTurn: () => db.prepare('DELETE FROM cerebro_queue_turns WHERE space = ?'),
      named: () => db.prepare(SQLITE_NAMED_ORIGINALS).pluck(),
      // A claim changes the row only while still queued and leases the job to its process until lease_until; every
      // later write of the job names its owner, so a job taken back from an expired lease can never be finished by
      // the process that lost it.
      claim: () =>
        db.prepare(
          `UPDATE cerebro_documents SET state = 'processing', progress = 0.05, stage = 'extrayendo', attempts = attempts + 1,
           started_at = ?, deadline_at = ?, updated_at = ?, lease_owner = ?, lease_until = ?
         WHERE space = ? AND id = ? AND state = 'queued' AND version = ?`,
        ),
      progress: () =>
        db.prepare(
          `UPDATE cerebro_documents SET progress = ?, stage = ?, updated_at = ?
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
        ),
      renew: () =>
        db.prepare("UPDATE cerebro_documents SET lease_until = ? WHERE lease_owner = ? AND state = 'processing'"),
      leased: () =>
        db.prepare("SELECT space, id, version FROM cerebro_documents WHERE lease_owner = ? AND state = 'processing'"),
      // Jobs left processing by a process that is gone: the lease ran out, or the owner is named for a check.
      unleased: () =>
        db.prepare(
          `SELECT * FROM cerebro_documents WHERE state = 'processing' AND (coalesce(lease_until, 0) <= ? OR lease_owner IS NOT ?)`,
        ),
      requeueLost: () =>
        db.prepare(
          `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = ?, lease_owner = NULL,
           lease_until = NULL WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner IS ?`,
        ),
      failLost: () =>
        db.prepare(
          `UPDATE cerebro_documents SET state = 'failed', stage = NULL, error_code = ?, reason = ?, finished_at = ?,
           updated_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner IS ?`,
        ),
      ready: () =>
        db.prepare(
          `UPDATE cerebro_documents SET state = 'ready', progress = 1, stage = NULL, error_code = NULL, reason = NULL,
           passages = ?, chars = ?, pages = ?, lang = ?, title = ?, encoding = ?, embed_model = ?, finished_at = ?, updated_at = ?,
           lease_owner = NULL, lease_until = NULL
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
        ),
      fail: () =>
        db.prepare(
          `UPDATE cerebro_documents SET state = 'failed', stage = NULL, error_code = ?, reason = ?, passages = 0, chars = 0,
           finished_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
        ),
      requeue: () =>
        db.prepare(
          `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = ?, lease_owner = NULL,
           lease_until = NULL WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
        ),
      staleVectors: () =>
        db.prepare("SELECT * FROM cerebro_documents WHERE state = 'ready' AND coalesce(embed_model, '') <> ?"),
      requeueStale: () =>
        db.prepare(
          `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = ?, queued_at = ?
         WHERE space = ? AND id = ? AND state = 'ready' AND coalesce(embed_model, '') <> ?`,
        ),
      delete: () => db.prepare('DELETE FROM cerebro_documents WHERE space = ? AND id = ?'),
      spaceDocs: () => db.prepare('SELECT id FROM cerebro_documents WHERE space = ?').pluck(),
    });
  }

  get open(): boolean {
    return this.db.open;
  }

  private rows(stmt: Database.Statement, ...args: unknown[]): DocumentRecord[] {
    return (stmt.all(...args) as DocumentRow[]).map(toRecord);
  }

  getNow(space: string, id: string): DocumentRecord | null {
    const r = this.stmt.byId!.get(space, id) as DocumentRow | undefined;
    return r ? toRecord(r) : null;
  }

  getByNameNow(space: string, name: string): DocumentRecord | null {
    const r = this.stmt.byName!.get(space, name) as DocumentRow | undefined;
    return r ? toRecord(r) : null;
  }

  async get(space: string, id: string): Promise<DocumentRecord | null> {
    return this.getNow(space, id);
  }

  async getMany(space: string, ids: readonly string[]): Promise<DocumentRecord[]> {
    return ids.length ? this.rows(this.stmt.byIds!, space, JSON.stringify(ids)) : [];
  }

  async getByName(space: string, name: string): Promise<DocumentRecord | null> {
    return this.getByNameNow(space, name);
  }

  async list(
    space: string,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; documents: DocumentRecord[] }> {
    return {
      total: this.stmt.count!.get(space) as number,
      documents: this.rows(this.stmt.list!, space, page.limit, page.offset),
    };
  }

  async all(space: string): Promise<DocumentRecord[]> {
    return this.rows(this.stmt.all!, space);
  }

  async hasQueued(): Promise<boolean> {
    return this.stmt.anyQueued!.get() !== undefined;
  }

  async submit(
    space: string,
    file: NewDocument,
    newId: string,
    at: string,
  ): Promise<{ document: DocumentRecord; replaced: boolean }> {
    return this.db
      .transaction(() => {
        const existing = this.getByNameNow(space, file.name);
        const { mediaType, format, bytes, sha256, path } = file;
        if (existing)
          this.stmt.requeueReplaced!.run(mediaType, format, bytes, sha256, path, at, at, space, existing.id);
        else this.stmt.insert!.run(space, newId, file.name, mediaType, format, bytes, sha256, path, at, at, at);
        return { document: this.getByNameNow(space, file.name)!, replaced: existing !== null };
      })
      .immediate();
  }

  async claimNext(lease: JobLease): Promise<DocumentRecord | null> {
    return this.db
      .transaction(() => {
        const space = this.stmt.nextSpace!.get() as string | undefined;
        if (space === undefined) return null;
        const next = this.stmt.nextInSpace!.get(space) as DocumentRow | undefined;
        if (!next || (lease.only && !fitsBatch(next, lease.only))) return null;
        const { at, deadlineAt, owner, leaseUntil } = lease;
        if (this.stmt.claim!.run(at, deadlineAt, at, owner, leaseUntil, space, next.id, next.version).changes !== 1)
          return null;
        this.stmt.served!.run(space);
        return this.getNow(space, next.id);
      })
      .immediate();
  }

  async progress(job: JobRef, owner: string, value: number, stage: string, at: string): Promise<boolean> {
    return this.stmt.progress!.run(value, stage, at, job.space, job.id, job.version, owner).changes === 1;
  }

  async renewLeases(owner: string, until: number): Promise<JobRef[]> {
    return this.db
      .transaction(() => {
        this.stmt.renew!.run(until, owner);
        return this.stmt.leased!.all(owner) as JobRef[];
      })
      .immediate();
  }

  async takeBackLost(request: TakeBack, passages: JobPassageSteps): Promise<{ requeued: number; failed: number }> {
    const { owner, now, at, failure } = request;
    const steps = sqliteSteps(passages);
    let requeued = 0;
    let failed = 0;
    this.db
      .transaction(() => {
        for (const doc of this.rows(this.stmt.unleased!, now, owner)) {
          const expired = (doc.leaseUntil ?? 0) <= now;
          if (!expired && (doc.leaseOwner === owner || !request.ownerIsGone(doc.leaseOwner))) continue;
          const lost = [doc.space, doc.id, doc.version, doc.leaseOwner] as const;
          if (doc.attempts >= request.maxAttempts) {
            if (this.stmt.failLost!.run(failure.code, failure.reason, at, at, ...lost).changes !== 1) continue;
            failed++;
          } else {
            if (this.stmt.requeueLost!.run(at, ...lost).changes !== 1) continue;
            requeued++;
          }
          steps.abandonDocumentRuns(doc.space, doc.id);
        }
        if (request.orphans) steps.abandonOrphanRuns();
      })
      .immediate();
    return { requeued, failed };
  }

  async requeueStaleVectors(model: string, at: string): Promise<number> {
    return this.db
      .transaction(() => {
        let requeued = 0;
        for (const doc of this.rows(this.stmt.staleVectors!, model))
          requeued += this.stmt.requeueStale!.run(at, at, doc.space, doc.id, model).changes;
        return requeued;
      })
      .immediate();
  }

  async markReady(
    job: JobRef & JobRun,
    owner: string,
    fields: ReadyFields,
    at: string,
    passages: JobPassageSteps,
    prepared?: readonly IndexedPassage[],
  ): Promise<boolean> {
    const steps = sqliteSteps(passages);
    return this.db.transaction(() => this.readyNow(job, owner, fields, at, steps, prepared)).immediate();
  }

  async markReadyMany(
    items: readonly ReadyBatchItem[],
    owner: string,
    at: string,
    passages: JobPassageSteps,
  ): Promise<boolean[]> {
    const steps = sqliteSteps(passages);
    return this.db
      .transaction(() =>
        items.map(({ job, fields, prepared }) => this.readyNow(job, owner, fields, at, steps, prepared)),
      )
      .immediate();
  }

  /** Within a transaction: swaps the job's passages in and marks its document ready, if the job still owns it. */
  private readyNow(
    job: JobRef & JobRun,
    owner: string,
    fields: ReadyFields,
    at: string,
    steps: ReturnType<typeof sqliteSteps>,
    prepared?: readonly IndexedPassage[],
  ): boolean {
    const current = this.getNow(job.space, job.id);
    if (!current || current.version !== job.version || current.state !== 'processing' || current.leaseOwner !== owner)
      return false;
    const count = prepared ? steps.swapInPrepared(job, prepared) : steps.swapIn(job);
    const { chars, pages, lang, title, encoding, embedModel } = fields;
    this.stmt.ready!.run(
      count,
      chars,
      pages,
      lang,
      title,
      encoding,
      embedModel,
      at,
      at,
      job.space,
      job.id,
      job.version,
      owner,
    );
    return true;
  }

  async fail(job: JobRef, owner: string, failure: Failure, at: string, passages: JobPassageSteps): Promise<boolean> {
    const steps = sqliteSteps(passages);
    return this.db
      .transaction(() => {
        const { code, reason } = failure;
        if (this.stmt.fail!.run(code, reason, at, at, job.space, job.id, job.version, owner).changes !== 1)
          return false;
        steps.hideDocument(job.space, job.id);
        return true;
      })
      .immediate();
  }

  async requeue(job: JobRef, owner: string, at: string): Promise<void> {
    this.stmt.requeue!.run(at, job.space, job.id, job.version, owner);
  }

  async remove(space: string, id: string, passages: JobPassageSteps): Promise<void> {
    const steps = sqliteSteps(passages);
    const db = this.db;
    if (db.inTransaction) {
      // Inside a caller's transaction the foreign-key switch below is a no-op: delete everything now instead.
      steps.deleteDocument(space, id);
      this.stmt.delete!.run(space, id);
      return;
    }
    // The passages' foreign key to their document (an immutable migration) would keep the record until the last
    // passage is gone. Enforcement is switched off for this one synchronous transaction only: the passages it
    // leaves without a document are hidden, never read, and deleted by the purge (or at the next start-up).
    db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        steps.hideDocument(space, id);
        this.stmt.delete!.run(space, id);
      }).immediate();
    } finally {
      db.pragma('foreign_keys = ON');
    }
  }

  async ids(space: string): Promise<string[]> {
    return this.stmt.spaceDocs!.all(space) as string[];
  }

  async namedOriginals(stored: readonly string[]): Promise<string[]> {
    if (stored.length === 0) return [];
    return this.stmt.named!.all(JSON.stringify(stored)) as string[];
  }

  async forgetTurn(space: string): Promise<void> {
    this.stmt.forgetTurn!.run(space);
  }
}

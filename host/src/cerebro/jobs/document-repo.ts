// SQL for document records and their job state. Kept apart from the runner so the runner reads as a state machine.
import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '../../storage/database.js';
import type { ExtractionErrorCode } from '../errors.js';
import type { DocumentState, DocumentStatus } from './types.js';

interface Row {
  space: string;
  id: string;
  name: string;
  media_type: string;
  format: string | null;
  bytes: number;
  sha256: string | null;
  path: string;
  state: DocumentState;
  progress: number;
  stage: string | null;
  error_code: string | null;
  reason: string | null;
  attempts: number;
  version: number;
  passages: number;
  chars: number;
  pages: number | null;
  lang: string | null;
  title: string | null;
  encoding: string | null;
  embed_model: string | null;
  created_at: string;
  updated_at: string;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  deadline_at: string | null;
  lease_owner: string | null;
  lease_until: number | null;
}

export const toStatus = (r: Row): DocumentStatus => ({
  id: r.id,
  space: r.space,
  name: r.name,
  mediaType: r.media_type,
  format: r.format,
  bytes: r.bytes,
  sha256: r.sha256,
  path: r.path,
  state: r.state,
  progress: r.progress,
  stage: r.stage,
  errorCode: r.error_code as ExtractionErrorCode | null,
  reason: r.reason,
  attempts: r.attempts,
  version: r.version,
  passages: r.passages,
  chars: r.chars,
  pages: r.pages,
  lang: r.lang,
  title: r.title,
  encoding: r.encoding,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  queuedAt: r.queued_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  deadlineAt: r.deadline_at,
  leaseOwner: r.lease_owner,
  leaseUntil: r.lease_until,
});

export class DocumentRepo {
  readonly stmt: Record<string, Database.Statement>;

  constructor(readonly db: SqliteDatabase) {
    this.stmt = {
      byId: db.prepare('SELECT * FROM cerebro_documents WHERE space = ? AND id = ?'),
      byName: db.prepare('SELECT * FROM cerebro_documents WHERE space = ? AND name = ?'),
      list: db.prepare('SELECT * FROM cerebro_documents WHERE space = ? ORDER BY created_at, name LIMIT ? OFFSET ?'),
      all: db.prepare('SELECT * FROM cerebro_documents WHERE space = ? ORDER BY created_at, name'),
      count: db.prepare('SELECT count(*) FROM cerebro_documents WHERE space = ?').pluck(),
      insert: db.prepare(
        `INSERT INTO cerebro_documents (space, id, name, media_type, format, bytes, sha256, path, state, progress,
           created_at, updated_at, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)`,
      ),
      requeueReplaced: db.prepare(
        `UPDATE cerebro_documents SET media_type = ?, format = ?, bytes = ?, sha256 = ?, path = ?, state = 'queued',
           progress = 0, stage = NULL, error_code = NULL, reason = NULL, attempts = 0, version = version + 1,
           updated_at = ?, queued_at = ?, started_at = NULL, finished_at = NULL, deadline_at = NULL
         WHERE space = ? AND id = ?`,
      ),
      anyQueued: db.prepare("SELECT 1 FROM cerebro_documents WHERE state = 'queued' LIMIT 1").pluck(),
      // Turns: among the spaces with queued work, the one never served or served longest ago goes first (ties: the
      // oldest waiting document), so a space's backlog delays another space's next document by one job at most.
      nextSpace: db
        .prepare(
          `SELECT q.space FROM (SELECT space, min(queued_at) AS first FROM cerebro_documents WHERE state = 'queued' GROUP BY space) q
         LEFT JOIN cerebro_queue_turns t ON t.space = q.space ORDER BY t.served IS NOT NULL, t.served, q.first LIMIT 1`,
        )
        .pluck(),
      nextInSpace: db.prepare(
        "SELECT * FROM cerebro_documents WHERE state = 'queued' AND space = ? ORDER BY queued_at, rowid LIMIT 1",
      ),
      served: db.prepare(
        `INSERT INTO cerebro_queue_turns (space, served) VALUES (?, (SELECT coalesce(max(served), 0) + 1 FROM cerebro_queue_turns))
         ON CONFLICT (space) DO UPDATE SET served = excluded.served`,
      ),
      forgetTurn: db.prepare('DELETE FROM cerebro_queue_turns WHERE space = ?'),
      // A claim is atomic (the row changes only while still queued) and leases the job to its process until
      // lease_until; every later write of the job names its owner, so a job taken back from an expired lease can
      // never be finished by the process that lost it.
      claim: db.prepare(
        `UPDATE cerebro_documents SET state = 'processing', progress = 0.05, stage = 'extrayendo', attempts = attempts + 1,
           started_at = ?, deadline_at = ?, updated_at = ?, lease_owner = ?, lease_until = ?
         WHERE space = ? AND id = ? AND state = 'queued' AND version = ?`,
      ),
      progress: db.prepare(
        `UPDATE cerebro_documents SET progress = ?, stage = ?, updated_at = ?
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
      ),
      renew: db.prepare("UPDATE cerebro_documents SET lease_until = ? WHERE lease_owner = ? AND state = 'processing'"),
      leased: db.prepare(
        "SELECT space, id, version FROM cerebro_documents WHERE lease_owner = ? AND state = 'processing'",
      ),
      // Jobs left processing by a process that is gone: the lease ran out, or the owner is named for a check.
      unleased: db.prepare(
        `SELECT * FROM cerebro_documents WHERE state = 'processing' AND (coalesce(lease_until, 0) <= ? OR lease_owner IS NOT ?)`,
      ),
      requeueLost: db.prepare(
        `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = ?, lease_owner = NULL,
           lease_until = NULL WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner IS ?`,
      ),
      failLost: db.prepare(
        `UPDATE cerebro_documents SET state = 'failed', stage = NULL, error_code = ?, reason = ?, finished_at = ?,
           updated_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner IS ?`,
      ),
      ready: db.prepare(
        `UPDATE cerebro_documents SET state = 'ready', progress = 1, stage = NULL, error_code = NULL, reason = NULL,
           passages = ?, chars = ?, pages = ?, lang = ?, title = ?, encoding = ?, embed_model = ?, finished_at = ?, updated_at = ?,
           lease_owner = NULL, lease_until = NULL
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
      ),
      fail: db.prepare(
        `UPDATE cerebro_documents SET state = 'failed', stage = NULL, error_code = ?, reason = ?, passages = 0, chars = 0,
           finished_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
      ),
      requeue: db.prepare(
        `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = ?, lease_owner = NULL,
           lease_until = NULL WHERE space = ? AND id = ? AND version = ? AND state = 'processing' AND lease_owner = ?`,
      ),
      staleVectors: db.prepare(
        "SELECT * FROM cerebro_documents WHERE state = 'ready' AND coalesce(embed_model, '') <> ?",
      ),
      requeueStale: db.prepare(
        `UPDATE cerebro_documents SET state = 'queued', progress = 0, stage = NULL, updated_at = ?, queued_at = ?
         WHERE space = ? AND id = ? AND state = 'ready' AND coalesce(embed_model, '') <> ?`,
      ),
      delete: db.prepare('DELETE FROM cerebro_documents WHERE space = ? AND id = ?'),
      spaceDocs: db.prepare('SELECT id FROM cerebro_documents WHERE space = ?').pluck(),
    };
  }

  get(space: string, id: string): DocumentStatus | null {
    const r = this.stmt.byId.get(space, id) as Row | undefined;
    return r ? toStatus(r) : null;
  }

  getByName(space: string, name: string): DocumentStatus | null {
    const r = this.stmt.byName.get(space, name) as Row | undefined;
    return r ? toStatus(r) : null;
  }

  rows(stmt: { all(...args: unknown[]): unknown[] }, ...args: unknown[]): DocumentStatus[] {
    return (stmt.all(...args) as Row[]).map(toStatus);
  }

  hasQueued(): boolean {
    return this.stmt.anyQueued.get() !== undefined;
  }

  /** The next document to index: the oldest queued one of the space whose turn it is. */
  nextQueued(): DocumentStatus | null {
    const space = this.stmt.nextSpace.get() as string | undefined;
    if (space === undefined) return null;
    const r = this.stmt.nextInSpace.get(space) as Row | undefined;
    return r ? toStatus(r) : null;
  }

  /** Records that a space was just given a job: it goes to the back of the rotation (kept across restarts). */
  markServed(space: string): void {
    this.stmt.served.run(space);
  }
}

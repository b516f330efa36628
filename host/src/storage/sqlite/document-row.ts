import type { DocumentRecord, DocumentState } from '../port/document-job-repository.js';

/** A `cerebro_documents` row as SQLite returns it. */
export interface DocumentRow {
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

export const toRecord = (r: DocumentRow): DocumentRecord => ({
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
  errorCode: r.error_code,
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

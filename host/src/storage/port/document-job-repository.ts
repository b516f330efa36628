import { createToken } from '@cerebro/sdk';
import type { IndexedPassage } from './passage-index-repository.js';

export type DocumentState = 'queued' | 'processing' | 'ready' | 'failed';

/** A document record with its indexing job's state, as stored. */
export interface DocumentRecord {
  id: string;
  space: string;
  name: string;
  mediaType: string;
  format: string | null;
  bytes: number;
  sha256: string | null;
  /** Where the original bytes are stored: relative to the data folder (older rows: absolute). */
  path: string;
  state: DocumentState;
  /** 0–1 while processing; 1 when ready. */
  progress: number;
  /** What processing is doing now: 'extrayendo', 'analizando', 'vectorizando', 'guardando' (null when not processing). */
  stage: string | null;
  /** The engine's failure code when failed (one of its ExtractionErrorCode values). */
  errorCode: string | null;
  /** Spanish reason when failed. */
  reason: string | null;
  attempts: number;
  /** Increases each time a file with the same name replaces the document. */
  version: number;
  passages: number;
  chars: number;
  pages: number | null;
  lang: string | null;
  title: string | null;
  encoding: string | null;
  createdAt: string;
  updatedAt: string;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  deadlineAt: string | null;
  /** The process whose job this is while processing (internal: never on the wire). */
  leaseOwner: string | null;
  /** Until when (ms since the epoch) that process's lease holds unless renewed. */
  leaseUntil: number | null;
}

/** One version of one document being indexed: every job write names it, so a replaced version's job writes nothing. */
export interface JobRef {
  space: string;
  id: string;
  version: number;
}

/** A job's run of hidden passages (the passage index's `IndexRun`). */
export interface JobRun {
  space: string;
  id: string;
  runId: number;
}

/** A file to record and queue; `format` as the engine detected it. */
export type NewDocument = Pick<DocumentRecord, 'name' | 'mediaType' | 'format' | 'bytes' | 'sha256' | 'path'>;

/** What indexing learnt of a document, written when it becomes ready. */
export interface ReadyFields {
  chars: number;
  pages: number | null;
  lang: string | null;
  title: string | null;
  encoding: string | null;
  /** The embedding model its vectors were made with; null without vectors. */
  embedModel: string | null;
}

/** One document of a batch to mark ready at once (`markReadyMany`): its job, its fields, its passages prepared whole. */
export interface ReadyBatchItem {
  job: JobRef & JobRun;
  fields: ReadyFields;
  prepared: readonly IndexedPassage[];
}

export interface Failure {
  code: string;
  reason: string;
}

/**
 * The passage index's part of a job transaction: passage changes that must commit (or not) together with the
 * document's state change, run inside the one transaction of a `DocumentJobRepository` method. What they do is the
 * same on every backend: the swap hides the document's searchable passages and reveals the run's (and tells the
 * document's passage count); a failure hides every passage of the document, runs included, for the purge; a job
 * taken back leaves its document's runs to the purge, and at start-up so do documents no process is indexing any
 * more; a removal hides (or deletes) the document's passages.
 *
 * How they run is the backend's: SQLite runs them synchronously on its one connection, PostgreSQL on the client of
 * the repository's transaction. So they are opaque here: the passage index makes them (`PassageIndexRepository
 * .jobSteps`) and only the same backend's document repository runs them; another backend's are refused.
 */
export interface JobPassageSteps {
  /** The backend whose document repository can run these steps in its transactions. */
  readonly backend: 'sqlite' | 'postgresql';
}

/** A claim: the job is `owner`'s until `leaseUntil` (ms) unless renewed; it must be done by `deadlineAt`. */
export interface JobLease {
  owner: string;
  at: string;
  deadlineAt: string;
  leaseUntil: number;
  /**
   * Claims the next job in turn only if its document is at most `maxBytes` in one of `formats` (one more small
   * document for a batch); otherwise claims nothing, so the turns stay as they are.
   */
  only?: { maxBytes: number; formats: ReadonlySet<string> };
}

/** Whether a queued document may join a batch of small ones (`JobLease.only`). */
export const fitsBatch = (
  doc: { bytes: number; format: string | null },
  only: NonNullable<JobLease['only']>,
): boolean => doc.bytes <= only.maxBytes && only.formats.has(doc.format ?? '');

export interface TakeBack {
  /** The owner asking; its own live jobs are never taken back. */
  owner: string;
  /** Ms since the epoch: a lease until this moment or earlier has run out. */
  now: number;
  at: string;
  /** Jobs already tried this many times fail with `failure` instead of going back to the queue. */
  maxAttempts: number;
  failure: Failure;
  /** True when the named owner is known to be gone (its process ended): its jobs are taken back at once. */
  ownerIsGone(owner: string | null): boolean;
  /** Also leave to the purge the runs of documents no longer processing anywhere (at start-up). */
  orphans: boolean;
}

/**
 * Document records and their indexing jobs (the queue, served to spaces in turns; leases; progress; the swap).
 * Every method is one transaction: a PostgreSQL implementation must give the same atomicity. Every write of a job
 * names its version and owner and changes the row only while it still is that owner's processing job, so a job taken
 * back, replaced, removed or cancelled by another process can never write again.
 */
export interface DocumentJobRepository {
  /** False once the host closed the storage: jobs settling after shutdown must not touch it. */
  readonly open: boolean;
  get(space: string, id: string): Promise<DocumentRecord | null>;
  /** The space's documents with these ids, in one read (a page of a listing); an id with no document is left out. */
  getMany(space: string, ids: readonly string[]): Promise<DocumentRecord[]>;
  getByName(space: string, name: string): Promise<DocumentRecord | null>;
  /** A page of the space's documents in upload order (created_at, then name), and how many there are. */
  list(space: string, page: { limit: number; offset: number }): Promise<{ total: number; documents: DocumentRecord[] }>;
  /** Every document of the space in upload order. */
  all(space: string): Promise<DocumentRecord[]>;
  hasQueued(): Promise<boolean>;
  /**
   * Records a file and queues it, atomically: a new name gets a new record with `newId`; an existing name is
   * replaced (same id, version + 1, attempts and failure cleared), which ends its running job's ownership.
   */
  submit(
    space: string,
    file: NewDocument,
    newId: string,
    at: string,
  ): Promise<{ document: DocumentRecord; replaced: boolean }>;
  /**
   * Claims the next job, atomically: of the spaces with queued documents the one served longest ago (never served
   * first; ties: the oldest waiting document), its oldest queued document. The space goes to the back of the turns.
   * Two claimers never get the same job. Returns the claimed record (processing, leased), or null with none queued.
   */
  claimNext(lease: JobLease): Promise<DocumentRecord | null>;
  /** Writes progress if the job is still `owner`'s; false when it is not (the worker must stop). */
  progress(job: JobRef, owner: string, value: number, stage: string, at: string): Promise<boolean>;
  /** Renews every lease `owner` holds to `until`; returns the jobs it holds, so a worker drops the others. */
  renewLeases(owner: string, until: number): Promise<JobRef[]>;
  /**
   * Takes back jobs whose lease ran out or whose owner is gone (never a live lease of another owner, never the
   * asker's own live jobs): back to the queue, or failed past `maxAttempts`; their runs are left to the purge.
   */
  takeBackLost(request: TakeBack, passages: JobPassageSteps): Promise<{ requeued: number; failed: number }>;
  /** Re-queues ready documents whose vectors were not made with `model`. Returns how many. */
  requeueStaleVectors(model: string, at: string): Promise<number>;
  /**
   * If the job is still `owner`'s processing job: swaps its run in and marks the document ready, all or nothing.
   * False (nothing changed) otherwise. With `prepared` (a small document prepared whole, none of its passages stored
   * yet) those passages are stored searchable in the same transaction instead of a stored run being swapped in: one
   * write transaction per such document instead of two.
   */
  markReady(
    job: JobRef & JobRun,
    owner: string,
    fields: ReadyFields,
    at: string,
    passages: JobPassageSteps,
    prepared?: readonly IndexedPassage[],
  ): Promise<boolean>;
  /**
   * `markReady` with passages prepared whole, for the small documents prepared together in one task: one transaction
   * (one commit) for all of them instead of one each. Each is stored and marked ready only if its job is still
   * `owner`'s; the answer says, in the items' order, which were. All or nothing: on a storage error none is.
   */
  markReadyMany(
    items: readonly ReadyBatchItem[],
    owner: string,
    at: string,
    passages: JobPassageSteps,
  ): Promise<boolean[]>;
  /** If the job is still `owner`'s: marks it failed and hides every passage of the document, all or nothing. */
  fail(job: JobRef, owner: string, failure: Failure, at: string, passages: JobPassageSteps): Promise<boolean>;
  /** Puts `owner`'s job back in the queue (the process is stopping). */
  requeue(job: JobRef, owner: string, at: string): Promise<void>;
  /**
   * Deletes the record and hides its passages in one transaction (the passages go later, with the purge). Any
   * job of it loses its ownership.
   */
  remove(space: string, id: string, passages: JobPassageSteps): Promise<void>;
  /** Ids of the space's documents. */
  ids(space: string): Promise<string[]>;
  /**
   * Which of these stored originals some document records as its own (`path`), in any space: the start-up sweep asks
   * before deleting an old file no document names. `path` is the only column that names an original (a replaced
   * version's is overwritten in the same transaction that queues the new one, and the old file retired at once), so
   * no other table is asked. One read by the path index; callers send a few hundred names at a time.
   */
  namedOriginals(stored: readonly string[]): Promise<string[]>;
  /** Drops the space from the queue's turns (the space was deleted). */
  forgetTurn(space: string): Promise<void>;
}

export const DocumentJobRepositoryToken = createToken<DocumentJobRepository>('host:document-job-repository');

/**
 * Synchronous reads of document records, only for the sdk's deprecated synchronous `Documents.get` and `listOwn`
 * (sdk 2.1 added the async `find` and `findOwn`, which first-party plugins use). Served on SQLite alone; the engine
 * reads its statuses through the async reads of `DocumentJobRepository`. They go away with those sdk methods.
 */
export interface DocumentReadsNow {
  getNow(space: string, id: string): DocumentRecord | null;
  getByNameNow(space: string, name: string): DocumentRecord | null;
}

export const DocumentReadsNowToken = createToken<DocumentReadsNow>('host:document-reads-now');

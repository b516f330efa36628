// The indexing queue: documents move queued → processing (with progress) → ready | failed (with a reason).
// State lives in the document repository (storage/port), so after a crash or restart `start()` re-queues interrupted
// work (up to a number of attempts) and nothing uploaded is lost. Every job has a deadline: past it the worker thread
// is terminated and the document fails with a reason instead of hanging. Spaces take turns
// (DocumentJobRepository.claimNext): one space's backlog delays another space's next document by at most the jobs
// already running.
import type { LocalOriginal } from '../../storage/port/originals-store.js';
import { randomInt, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type {
  DocumentJobRepository,
  DocumentRecord,
  JobLease,
  ReadyFields,
} from '../../storage/port/document-job-repository.js';
import type { ProcessLeaseRepository } from '../../storage/port/process-lease-repository.js';
import type { VectorRepository } from '../../storage/port/vector-repository.js';
import { storageFailureOf } from '../../storage/storage-failure.js';
import { reasons, type ExtractionErrorCode } from '../errors.js';
import { formatOf } from '../extract/formats.js';
import type { PreparePool } from '../extract/pool.js';
import type { PreparedDocument, PreparedPassage, PrepareResult, PrepareTask } from '../extract/prepare.js';
import type { Embedder } from '../vector/embedder.js';
import { ANALYSIS_END, AnalysisProgress } from './analysis-progress.js';
import type { PassageWriter } from './passage-writer.js';
import { ORIGINAL_RETRY_DELAYS_MS, openOriginalPatiently } from './open-original.js';
import { PROCESS_OWNER, ownerIsGone } from '../../storage/shared/process-owner.js';
import type { DocumentStatus, SpaceIndexingStatus, SubmitDocument } from './types.js';

export interface IndexingOptions {
  /** A job still processing after this long fails (default 10 minutes). */
  deadlineMs: number;
  /** Documents processed at the same time (default 1). */
  concurrency: number;
  /** Interrupted runs (restart, crash) tolerated before a document fails for good (default 3). */
  maxAttempts: number;
  /** Passages embedded per model call when vectors are configured. */
  embedBatch: number;
  /**
   * How long a claimed job stays this process's after its last renewal (renewed every third of it while it runs).
   * Another process takes a job back only once its lease ran out, or at once when its owner's pid is gone.
   */
  leaseMs: number;
  /** How often the queue is looked at for work other processes queued, leases renewed and lost jobs taken back. */
  pollMs: number;
  /** This runner as the owner of its jobs' leases (default: this process). */
  owner: string;
  /** Pauses between reads of an original whose store does not answer, before the job fails (`no_disponible`). */
  originalRetryDelaysMs: readonly number[];
}

export const DEFAULT_INDEXING_OPTIONS: IndexingOptions = {
  deadlineMs: 10 * 60_000,
  concurrency: 1,
  maxAttempts: 3,
  embedBatch: 32,
  leaseMs: 30_000,
  pollMs: 1000,
  owner: PROCESS_OWNER,
  originalRetryDelaysMs: ORIGINAL_RETRY_DELAYS_MS,
};

/** The lease of the passage purge: one process at a time deletes hidden passages. */
const PURGE_LEASE = 'purga-pasajes';

/** The embedding model and where the vectors it makes are stored. */
export interface IndexingVectors {
  embedder: Embedder;
  store: VectorRepository;
}

export interface IndexingDependencies {
  /** Document records and their jobs. */
  documents: DocumentJobRepository;
  /** Named leases: the purge runs in one process at a time. */
  leases: ProcessLeaseRepository;
  /** The passage index's writes. */
  passages: PassageWriter;
  pool: PreparePool;
  vectors?: IndexingVectors | null;
  /** Called whenever the searchable content of a space changes (ready, failed replacement, removal): clear caches. */
  onContentChanged?: (space: string) => void;
  /** Called on every state change of a document (for logs or live status). */
  onStateChanged?: (doc: DocumentStatus) => void;
  now?: () => Date;
  /** The folder stored document paths are relative to (the data folder); absent: paths are used as stored. */
  originalsRoot?: string;
  /** A local file with a stored original's bytes (a remote store's temporary copy); absent: the file under `originalsRoot`. */
  openOriginal?: (stored: string) => Promise<LocalOriginal>;
  /**
   * Told of an error the runner survived (a full disk, a busy database) with where it happened; the runner never
   * throws out of a background step, so this is where such errors are logged.
   */
  onError?: (err: unknown, where: { stage: string; space?: string; id?: string }) => void;
  /** Called when a job met a full disk, before its failure is written: a chance to give back reserved space. */
  onDiskFull?: () => void;
}

/** The repository holds only failure codes the engine wrote: its records are the engine's statuses. */
const asStatus = (record: DocumentRecord): DocumentStatus => record as DocumentStatus;

class Cancelled extends Error {}

interface Running {
  space: string;
  id: string;
  version: number;
  runId: number;
  controller: AbortController;
  /** The document as this job last wrote it (claimed, then each progress), told to `onStateChanged` without a read. */
  status: DocumentStatus;
  /** Intermediate progress is not written (QUIET_PROGRESS_MAX_BYTES). */
  quiet: boolean;
  /** Prepared whole, its passages stored with the ready state (PREPARED_WHOLE_MAX_BYTES). */
  whole: boolean;
}

/**
 * Passages deleted per purge transaction (~50-90 ms each on the benchmark machine). Smaller batches hold the
 * event loop less but leave the full-text index fragmented by many small delete segments: with 500, question
 * latency at 50,000 passages went from p50 5 ms to 16 ms after a fifth of the documents were replaced; with 5000 it
 * stays at 5 ms (npm run bench -- cerebro, "churn").
 */
export const PURGE_BATCH = 5000;

/**
 * While jobs run, a purge asked for waits this long, so that the documents finished meanwhile share it: each purge
 * takes a lease, reads and releases it (three writes), which a crawl of small pages paid once per page. It runs at once
 * when the queue empties (and at once when nothing runs).
 */
export const PURGE_DELAY_MS = 1000;

/**
 * Documents of a text format (no tool, no OCR) up to this size are prepared and stored in a few milliseconds: their
 * intermediate progress (analizando, guardando) is not written, as nobody could see it before the document is ready
 * (two writes per page of a crawl). The claim's `extrayendo` and the final state are written as for any document.
 */
export const QUIET_PROGRESS_MAX_BYTES = 64 * 1024;
const QUIET_FORMATS: ReadonlySet<string> = new Set(['text', 'markdown', 'html', 'csv']);

/**
 * A quiet document up to this size (a web page of a crawl) is prepared whole: its passages come back with the
 * worker's result instead of through a channel made, transferred and closed for them, and are stored in the
 * transaction that marks it ready (one write transaction instead of two). Larger ones stream their passages as they
 * are analysed, keeping the worker's and this thread's memory flat.
 */
export const PREPARED_WHOLE_MAX_BYTES = 16 * 1024;

/**
 * Small documents prepared together in one task of the worker thread: each task's hand-over (messages, the thread's
 * job scope, promises on both sides) cost ~0.2 ms of CPU per document, about as much as preparing a web page itself.
 * Only documents already queued join (nothing waits for more); a larger one ends the batch, which bounds what a
 * backlog of small documents makes another space's document wait to one batch.
 */
export const PREPARE_BATCH_MAX = 8;
const BATCH_ONLY = { maxBytes: PREPARED_WHOLE_MAX_BYTES, formats: QUIET_FORMATS };

/** After a background step failed on storage (full disk, busy database), how long before it is tried again. */
export const STORAGE_RETRY_MS = 5000;

export class IndexingRunner {
  private readonly options: IndexingOptions;
  private readonly running = new Map<string, Running>();
  private started = false;
  private purging = false;
  /** A purge asked for while jobs ran, due at this timer or when the queue empties, whichever comes first. */
  private purgeTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** A claim loop is running; `pumpAgain` asks it to look once more when done (claims never overlap). */
  private pumping = false;
  private pumpAgain = false;
  private ticking = false;
  /** Submissions and removals still being written. */
  private writing = 0;
  private idleWaiters: (() => void)[] = [];
  /** Failures that could not be written (the disk was full), written again at the next retry. */
  private unwrittenFailures: { job: Running; code: ExtractionErrorCode; reason: string }[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private lastRenewal = 0;

  constructor(
    private readonly deps: IndexingDependencies,
    options: Partial<IndexingOptions> = {},
  ) {
    this.options = { ...DEFAULT_INDEXING_OPTIONS, ...options };
  }

  private nowMs(): number {
    return this.deps.now?.().getTime() ?? Date.now();
  }

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  /**
   * Resumes after a restart: documents left 'processing' by a process that is gone (its lease ran out, or its pid
   * no longer exists) are re-queued (or failed once they used up their attempts), ready documents indexed without
   * the configured embedding model are re-queued, then work starts. Jobs other live processes hold stay theirs.
   */
  async start(): Promise<{ requeued: number; failed: number }> {
    const taken = await this.takeBackLost(true);
    let requeued = taken.requeued;
    if (this.deps.vectors)
      requeued += await this.deps.documents.requeueStaleVectors(this.deps.vectors.embedder.id, this.now());
    this.started = true;
    this.stopping = false;
    this.tickTimer = setInterval(() => void this.tick(), this.options.pollMs);
    this.tickTimer.unref();
    this.pump();
    this.schedulePurge();
    return { requeued, failed: taken.failed };
  }

  /**
   * Jobs whose process is gone go back to the queue (or fail past their attempts); their half-stored runs are
   * abandoned to the purge. Each row is changed only if it is still the lost job it was read as.
   */
  private async takeBackLost(orphans = false): Promise<{ requeued: number; failed: number }> {
    const taken = await this.deps.documents.takeBackLost(
      {
        owner: this.options.owner,
        now: this.nowMs(),
        at: this.now(),
        maxAttempts: this.options.maxAttempts,
        failure: { code: 'interrumpido', reason: reasons.interrupted },
        ownerIsGone,
        // At start: runs of documents no longer processing anywhere (removed or replaced while their process died).
        orphans,
      },
      this.deps.passages.steps,
    );
    if (taken.requeued + taken.failed > 0) this.schedulePurge();
    return taken;
  }

  /**
   * Every pollMs: renews this runner's leases (every third of a lease), stops jobs the database says are no longer
   * this runner's (replaced, removed or cancelled by another process), takes back lost jobs, and claims queued work
   * another process submitted.
   */
  private async tick(): Promise<void> {
    if (!this.started || this.stopping || !this.deps.documents.open || this.ticking) return;
    this.ticking = true;
    try {
      const now = this.nowMs();
      if (this.running.size > 0 && now - this.lastRenewal >= this.options.leaseMs / 3) {
        this.lastRenewal = now;
        this.dropDisowned(await this.deps.documents.renewLeases(this.options.owner, now + this.options.leaseMs));
      }
      await this.takeBackLost();
    } catch (err) {
      this.survived(err, { stage: 'arriendo' });
    } finally {
      this.ticking = false;
    }
    this.pump();
  }

  /** Aborts running jobs whose row is no longer theirs. */
  private dropDisowned(held: readonly { space: string; id: string; version: number }[]): void {
    const leased = new Set(held.map((r) => `${r.space}\u0000${r.id}\u0000${r.version}`));
    for (const [key, job] of this.running)
      if (!leased.has(`${job.space}\u0000${job.id}\u0000${job.version}`)) {
        this.running.delete(key);
        job.controller.abort(new Cancelled('superseded'));
      }
  }

  /**
   * Records an uploaded file and queues it. A file with the name of an existing document replaces it: same id,
   * version + 1; the old passages stay searchable until the new version is ready.
   */
  async submit(space: string, file: SubmitDocument): Promise<DocumentStatus> {
    this.writing++;
    try {
      const mediaType = file.mediaType ?? 'application/octet-stream';
      const { document, replaced } = await this.deps.documents.submit(
        space,
        {
          name: file.name,
          mediaType,
          format: formatOf(file.name, mediaType),
          bytes: file.bytes,
          sha256: file.sha256 ?? null,
          path: file.path,
        },
        randomUUID(),
        this.now(),
      );
      const doc = asStatus(document);
      if (replaced) this.cancel(space, doc.id, doc.version);
      this.deps.onStateChanged?.(doc);
      return doc;
    } finally {
      this.writing--;
      this.pump();
    }
  }

  /**
   * Deletes a document, stopping its job if running. Returns the removed record. The record goes at once and its
   * passages stop being searchable at once; the passages themselves (and their vectors) are deleted by the
   * background purge, so removing a large document does not hold the event loop for the length of a full-text
   * delete (~1 s for 35,000 passages).
   */
  async remove(space: string, id: string): Promise<DocumentStatus | null> {
    const found = await this.deps.documents.get(space, id);
    if (!found) return null;
    const doc = asStatus(found);
    this.cancel(space, id);
    this.writing++;
    try {
      await this.deps.documents.remove(space, id, this.deps.passages.steps);
    } finally {
      this.writing--;
    }
    this.deps.onContentChanged?.(space);
    this.pump();
    this.schedulePurge();
    return doc;
  }

  /** Deletes every document of a space (when the space itself is deleted). Returns how many were removed. */
  async removeSpace(space: string): Promise<number> {
    const ids = await this.deps.documents.ids(space);
    for (const id of ids) await this.remove(space, id);
    await this.deps.documents.forgetTurn(space);
    return ids.length;
  }

  async document(space: string, id: string): Promise<DocumentStatus | null> {
    const doc = await this.deps.documents.get(space, id);
    return doc && asStatus(doc);
  }

  async documentByName(space: string, name: string): Promise<DocumentStatus | null> {
    const doc = await this.deps.documents.getByName(space, name);
    return doc && asStatus(doc);
  }

  async list(
    space: string,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; documents: DocumentStatus[] }> {
    const { total, documents } = await this.deps.documents.list(space, page);
    return { total, documents: documents.map(asStatus) };
  }

  async status(space: string): Promise<SpaceIndexingStatus> {
    const documents = (await this.deps.documents.all(space)).map(asStatus);
    const count = (s: DocumentStatus['state']) => documents.filter((d) => d.state === s).length;
    const queued = count('queued');
    const processing = count('processing');
    const weight = documents.reduce((a, d) => a + Math.max(1, d.bytes), 0);
    const done = documents.reduce(
      (a, d) => a + Math.max(1, d.bytes) * (d.state === 'ready' || d.state === 'failed' ? 1 : d.progress),
      0,
    );
    return {
      space,
      state: documents.length === 0 ? 'empty' : queued + processing > 0 ? 'indexing' : 'ready',
      ready: queued + processing === 0,
      total: documents.length,
      queued,
      processing,
      readyCount: count('ready'),
      failed: count('failed'),
      progress: documents.length ? Math.round((done / weight) * 1000) / 1000 : 1,
      passages: documents.reduce((a, d) => a + d.passages, 0),
      documents,
    };
  }

  /** Resolves when no job is running or queued and the background purge is done (for tests and orderly shutdown). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.wakeIdleWaiters();
    });
  }

  private async isIdle(): Promise<boolean> {
    // A job aborted by stop() settles after the host has closed the database: nothing can run any more, so idle
    // (asking the closed database would throw inside that job's promise chain, an unhandled rejection).
    if (!this.deps.documents.open) return true;
    if (this.running.size > 0 || this.purging || this.pumping || this.writing > 0) return false;
    return !(await this.deps.documents.hasQueued());
  }

  private wakeIdleWaiters(): void {
    if (this.idleWaiters.length === 0) return;
    this.isIdle().then(
      (idle) => {
        if (idle) for (const w of this.idleWaiters.splice(0)) w();
      },
      () => {}, // the queue could not be read; the next pump or retry asks again
    );
  }

  /**
   * Deletes hidden passages waiting for it (old versions, abandoned runs, failed or removed documents) in bounded
   * transactions, one per event-loop turn, so a large document is removed without holding the loop for long.
   */
  private schedulePurge(): void {
    if (this.purging || !this.started || this.stopping) return;
    this.purging = true;
    if (this.running.size === 0) setImmediate(() => void this.purgeStep());
    else {
      this.purgeTimer = setTimeout(() => this.purgeNow(), PURGE_DELAY_MS);
      this.purgeTimer.unref();
    }
  }

  /** Runs a purge waiting for its timer now (the queue is empty). */
  private purgeNow(): void {
    if (!this.purgeTimer) return;
    clearTimeout(this.purgeTimer);
    this.purgeTimer = null;
    setImmediate(() => void this.purgeStep());
  }

  private async purgeStep(): Promise<void> {
    if (!this.started || this.stopping || !this.deps.documents.open) {
      this.purging = false;
      return;
    }
    let removed = 0;
    let leased = false;
    try {
      // One process purges at a time: two deleting the same passages would only fight over the write lock.
      leased = await this.deps.leases.acquire(PURGE_LEASE, this.options.owner, this.nowMs(), this.options.leaseMs);
      if (leased) removed = await this.deps.passages.purge(PURGE_BATCH);
    } catch {
      removed = 0; // retried at the next start-up; never a crash of the server
    }
    if (removed === PURGE_BATCH) {
      setImmediate(() => void this.purgeStep());
      return;
    }
    try {
      if (leased) await this.deps.leases.release(PURGE_LEASE, this.options.owner);
    } catch {
      // The lease runs out by itself.
    }
    this.purging = false;
    this.wakeIdleWaiters();
  }

  /** Stops taking work; running jobs are aborted and re-queued so the next start resumes them. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.purgeTimer) {
      clearTimeout(this.purgeTimer);
      this.purgeTimer = null;
      this.purging = false;
    }
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = null;
    const jobs = [...this.running.values()];
    this.running.clear();
    this.started = false;
    const t = this.now();
    for (const job of jobs) {
      try {
        await this.deps.documents.requeue(job, this.options.owner, t);
      } catch {
        // Not written (a closed or full database): the lease runs out and another start takes the job back.
      }
      job.controller.abort(new Cancelled('stopping'));
    }
  }

  /** Stops this runner's job of the document (of a version before `beforeVersion`, when given). */
  private cancel(space: string, id: string, beforeVersion = Number.POSITIVE_INFINITY): void {
    const job = this.running.get(`${space}\u0000${id}`);
    if (!job || job.version >= beforeVersion) return;
    this.running.delete(`${space}\u0000${id}`);
    job.controller.abort(new Cancelled('superseded'));
  }

  /**
   * Starts queued jobs up to the concurrency. Runs from request handlers and from the end of every job: it never
   * throws, since an error here (a full disk on the claim) would be an unhandled rejection that ends the process;
   * a step that fails is tried again after STORAGE_RETRY_MS. One claim loop runs at a time.
   */
  private pump(): void {
    if (!this.started || this.stopping) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.claimQueued()
      .catch((err: unknown) => this.survived(err, { stage: 'cola' }))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        } else if (this.running.size === 0) this.purgeNow();
        this.wakeIdleWaiters();
      });
  }

  private async claimQueued(): Promise<void> {
    while (this.started && !this.stopping && this.running.size < this.options.concurrency) {
      const first = await this.claim();
      if (!first) break;
      if (!first.whole || !this.deps.pool.prepareMany) {
        this.launch([first], this.run(first, first.status));
        continue;
      }
      // A small document takes the small ones next in turn with it (no waiting: only those already queued), up to
      // PREPARE_BATCH_MAX, stopping at the first that is not small so that the turns stay as they are.
      const batch = [first];
      while (batch.length < PREPARE_BATCH_MAX && this.started && !this.stopping) {
        const more = await this.claim(BATCH_ONLY);
        if (!more) break;
        batch.push(more);
      }
      this.launch(batch, batch.length === 1 ? this.run(first, first.status) : this.runBatch(batch));
    }
  }

  /** Claims the next job in turn (`only`: if it fits a batch) and records it as running. */
  private async claim(only?: JobLease['only']): Promise<Running | null> {
    const t = this.now();
    const now = Date.parse(t);
    const next = await this.deps.documents.claimNext({
      owner: this.options.owner,
      at: t,
      deadlineAt: new Date(now + this.options.deadlineMs).toISOString(),
      leaseUntil: now + this.options.leaseMs,
      ...(only ? { only } : {}),
    });
    if (!next) return null;
    const doc = asStatus(next);
    const quiet = !this.deps.vectors && doc.bytes <= QUIET_PROGRESS_MAX_BYTES && QUIET_FORMATS.has(doc.format ?? '');
    const job: Running = {
      space: doc.space,
      id: doc.id,
      version: doc.version,
      runId: randomInt(2 ** 47),
      controller: new AbortController(),
      status: doc,
      quiet,
      whole: quiet && doc.bytes <= PREPARED_WHOLE_MAX_BYTES,
    };
    this.running.set(`${job.space}\u0000${job.id}`, job);
    this.deps.onStateChanged?.(doc);
    return job;
  }

  /** Follows the work of `jobs` until it settles: each is then no longer running, and the queue is looked at again. */
  private launch(jobs: readonly Running[], work: Promise<void>): void {
    void work
      .catch((err: unknown) => this.survived(err, { stage: 'trabajo', space: jobs[0]!.space, id: jobs[0]!.id }))
      .finally(() => {
        for (const job of jobs)
          if (this.running.get(`${job.space}\u0000${job.id}`) === job)
            this.running.delete(`${job.space}\u0000${job.id}`);
        this.pump();
      });
  }

  /**
   * Several small documents prepared in one task of the worker thread, each then stored and marked ready on its own
   * (or failed with its own reason). Anything out of the ordinary sends the documents concerned through `run`, one
   * by one, with its retries, deadline and failure handling: an original that cannot be opened at once, the batch's
   * task failing or outliving the deadline (a terminated thread; the one alone then gets a deadline of its own), or
   * a document that could not be stored. A job stopped meanwhile (replaced,
   * removed, stopping) has its result dropped; the task is aborted only once every job of it is stopped.
   */
  private async runBatch(jobs: readonly Running[]): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('deadline')), this.options.deadlineMs);
    const allStopped = () => {
      if (jobs.every((job) => job.controller.signal.aborted)) controller.abort(new Cancelled('stopped'));
    };
    for (const job of jobs) job.controller.signal.addEventListener('abort', allStopped, { once: true });
    const alone: Running[] = [];
    try {
      const opened: { job: Running; original: LocalOriginal | null }[] = [];
      for (const job of jobs) {
        try {
          opened.push({ job, original: this.deps.openOriginal ? await this.deps.openOriginal(job.status.path) : null });
        } catch {
          alone.push(job);
        }
      }
      let results: PrepareResult[] | null = null;
      try {
        results = await this.deps.pool.prepareMany!(
          opened.map(({ job, original }) => this.task(job.status, original)),
          controller.signal,
        );
      } catch {
        // Terminated at the deadline, or the thread failed: each one alone tells which, with its own deadline.
      } finally {
        for (const { original } of opened)
          await original?.release().catch((err: unknown) => this.survived(err, { stage: 'temporal' }));
      }
      const prepared: { job: Running; document: PreparedDocument }[] = [];
      for (const [i, { job }] of opened.entries()) {
        const result = results?.[i];
        if (job.controller.signal.aborted) continue;
        if (!result) alone.push(job);
        else if (!result.ok) await this.fail(job, result.error.code, result.error.reason);
        else prepared.push({ job, document: result.document });
      }
      let stored: readonly boolean[] = [];
      try {
        stored = await this.commitMany(prepared);
      } catch {
        // A storage error: nothing of the batch was stored; `run` meets it again for each and fails it as it would.
        alone.push(...prepared.map(({ job }) => job));
      }
      // Stored and ready whatever follows: a failure to tell it is logged, and the rest of the batch goes on.
      for (const [i, { job }] of prepared.entries())
        if (stored[i])
          await this.committed(job).catch((err: unknown) =>
            this.survived(err, { stage: 'trabajo', space: job.space, id: job.id }),
          );
    } finally {
      clearTimeout(timer);
      for (const job of jobs) job.controller.signal.removeEventListener('abort', allStopped);
    }
    for (const job of alone) if (!job.controller.signal.aborted) await this.run(job, job.status);
  }

  /** What the worker thread is given to prepare a document (its bytes, when its original is kept in memory). */
  private task(doc: DocumentStatus, original: LocalOriginal | null): PrepareTask {
    return {
      path: original?.path ?? resolve(this.deps.originalsRoot ?? '', doc.path),
      ...(original?.content ? { content: original.content } : {}),
      name: doc.name,
      mediaType: doc.mediaType,
      timeoutMs: this.options.deadlineMs,
    };
  }

  /** Reports an error the runner outlived and schedules another try of the pending work (claims, unwritten failures). */
  private survived(err: unknown, where: { stage: string; space?: string; id?: string }): void {
    try {
      this.deps.onError?.(err, where);
    } catch {
      // A logger that throws must not turn a survived error into a fatal one.
    }
    if (this.retryTimer || !this.started || this.stopping) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.writeUnwrittenFailures().finally(() => this.pump());
    }, STORAGE_RETRY_MS);
    this.retryTimer.unref();
  }

  private async changed(job: Running): Promise<void> {
    const doc = await this.deps.documents.get(job.space, job.id);
    if (doc) this.deps.onStateChanged?.(asStatus(doc));
  }

  /** Writes progress; a job whose row is no longer its own (another process replaced or removed it) stops here. */
  private async progress(job: Running, value: number, stage: string): Promise<void> {
    // Unwritten, a change of ownership is still caught: markReady only swaps a job that owns its document.
    if (job.quiet) return;
    const at = this.now();
    if (!(await this.deps.documents.progress(job, this.options.owner, value, stage, at))) {
      job.controller.abort(new Cancelled('superseded'));
      return;
    }
    // The row changed only in what was just written (the write matched this job's version and lease): told as it
    // is now without reading it back, which was a read per update of every document indexed.
    job.status = { ...job.status, progress: value, stage, updatedAt: at };
    this.deps.onStateChanged?.(job.status);
  }

  private async fail(job: Running, code: ExtractionErrorCode, reason: string): Promise<void> {
    // Only the job that still owns the document (same version, still processing) may fail it and drop its passages.
    let owned: boolean;
    try {
      owned = await this.deps.documents.fail(
        job,
        this.options.owner,
        { code, reason },
        this.now(),
        this.deps.passages.steps,
      );
    } catch (err) {
      // Not even the failure could be written (a full disk): kept and written at the next retry; until then the
      // document stays `processing`, and a restart re-queues it.
      this.unwrittenFailures.push({ job, code, reason });
      this.survived(err, { stage: 'fallo', space: job.space, id: job.id });
      return;
    }
    if (!owned) return;
    await this.changed(job);
    this.deps.onContentChanged?.(job.space);
    this.schedulePurge();
  }

  private async writeUnwrittenFailures(): Promise<void> {
    for (const failure of this.unwrittenFailures.splice(0)) await this.fail(failure.job, failure.code, failure.reason);
  }

  private async run(job: Running, doc: DocumentStatus): Promise<void> {
    const { signal } = job.controller;
    const timer = setTimeout(() => job.controller.abort(new Error('deadline')), this.options.deadlineMs);
    let swapped = false;
    let original: LocalOriginal | null = null;
    try {
      // Passages are stored batch by batch, hidden from searches, while the worker analyses the rest: flat memory
      // and short transactions. A batch arriving after the job was cancelled is dropped. Stages: extrayendo (until
      // the first passages), analizando (by text seen), vectorizando (by passages embedded), guardando (the swap).
      // Batches are written in arrival order, each after the one before; the first failure is thrown after the worker.
      const analysis = new AnalysisProgress(doc.bytes);
      let stored: Promise<void> = Promise.resolve();
      let storeFailure: { err: unknown } | null = null;
      original = this.deps.openOriginal
        ? await openOriginalPatiently(
            this.deps.openOriginal,
            doc.path,
            signal,
            this.options.originalRetryDelaysMs,
            (err) => this.survived(err, { stage: 'original', space: job.space, id: job.id }),
          )
        : null;
      const task = this.task(doc, original);
      if (job.whole) {
        const whole = await this.deps.pool.prepare(task, signal);
        signal.throwIfAborted();
        if (!whole.ok) {
          await this.fail(job, whole.error.code, whole.error.reason);
          return;
        }
        swapped = await this.commit(job, whole.document, whole.document.passages);
        return;
      }
      const result = await this.deps.pool.prepare(task, signal, (batch) => {
        if (signal.aborted) return;
        stored = stored.then(async () => {
          if (storeFailure || signal.aborted) return;
          try {
            await this.deps.passages.addHidden(job, batch);
            const value = analysis.add(batch);
            if (value !== null) await this.progress(job, value, 'analizando');
          } catch (err) {
            storeFailure = { err };
          }
        });
      });
      await stored;
      if (storeFailure) throw (storeFailure as { err: unknown }).err;
      signal.throwIfAborted();
      if (!result.ok) {
        await this.fail(job, result.error.code, result.error.reason);
        return;
      }
      const embeds = !!this.deps.vectors && result.document.passageCount > 0;
      await this.progress(job, ANALYSIS_END, embeds ? 'vectorizando' : 'guardando');
      await this.embed(job, result.document);
      if (embeds) await this.progress(job, 0.95, 'guardando');
      signal.throwIfAborted();
      swapped = await this.commit(job, result.document);
    } catch (err) {
      if (signal.aborted && signal.reason instanceof Cancelled) return; // replaced, removed or stopping: not a failure
      const storage = storageFailureOf(err);
      if (signal.aborted)
        await this.fail(job, 'tiempo_agotado', reasons.timeout(Math.round(this.options.deadlineMs / 1000)));
      else if (storage?.kind === 'full') {
        this.survived(err, { stage: 'indexación', space: job.space, id: job.id });
        this.deps.onDiskFull?.();
        await this.fail(job, 'sin_espacio', reasons.diskFull);
      } else if (storage?.kind === 'unavailable') {
        this.survived(err, { stage: 'original', space: job.space, id: job.id });
        await this.fail(job, 'no_disponible', reasons.originalsUnavailable);
      } else await this.fail(job, 'error_interno', reasons.internal);
      // Other errors are not logged here: they may quote document text; onStateChanged carries the failure.
    } finally {
      clearTimeout(timer);
      await original
        ?.release()
        .catch((err: unknown) => this.survived(err, { stage: 'temporal', space: job.space, id: job.id }));
      // A run that was not swapped in leaves its passages for the purge (unless the host already closed the
      // database on shutdown: start-up abandons every run then).
      if (!swapped && this.deps.documents.open) {
        try {
          await this.deps.passages.abandonRun(job);
        } catch (err) {
          this.survived(err, { stage: 'abandono', space: job.space, id: job.id }); // start-up abandons every run too
        }
        this.schedulePurge();
      }
    }
  }

  /** Vectors of the run's passages, batch by batch, stored as they come (hidden with their passages until the swap). */
  private async embed(job: Running, doc: PreparedDocument): Promise<void> {
    const vectors = this.deps.vectors;
    if (!vectors || doc.passageCount === 0) return;
    let done = 0;
    let afterOrd = -1;
    for (;;) {
      job.controller.signal.throwIfAborted();
      const passages = await this.deps.passages.runPassages(job, afterOrd, this.options.embedBatch);
      if (passages.length === 0) break;
      afterOrd = passages[passages.length - 1]!.ord;
      const texts = passages.map((p) => (p.headings.length ? `${p.headings.join(' › ')}\n${p.text}` : p.text));
      const embedded = await vectors.embedder.embed(texts, 'passage');
      job.controller.signal.throwIfAborted();
      await vectors.store.put(
        job.space,
        passages.map((p) => p.id),
        embedded,
      );
      done += passages.length;
      await this.progress(job, 0.6 + 0.35 * Math.min(1, done / doc.passageCount), 'vectorizando');
    }
  }

  /**
   * Stores the passages of documents prepared whole in one task and marks them ready, in one transaction (one commit
   * for the batch: a crawl's pages arrive as many small documents), each if its job still owns it: which were.
   */
  private async commitMany(batch: readonly { job: Running; document: PreparedDocument }[]): Promise<boolean[]> {
    if (batch.length === 0) return [];
    return this.deps.documents.markReadyMany(
      batch.map(({ job, document }) => ({ job, fields: this.readyFields(document), prepared: document.passages })),
      this.options.owner,
      this.now(),
      this.deps.passages.steps,
    );
  }

  /** After a job's document was marked ready: told, its space's content changed, the purge scheduled. */
  private async committed(job: Running): Promise<void> {
    await this.changed(job);
    this.deps.onContentChanged?.(job.space);
    this.schedulePurge();
  }

  private readyFields(doc: PreparedDocument): ReadyFields {
    return {
      chars: doc.chars,
      pages: doc.pages,
      lang: doc.lang,
      title: doc.title,
      encoding: doc.encoding,
      embedModel: this.deps.vectors?.embedder.id ?? null,
    };
  }

  /**
   * Swaps the run's passages in (or stores `prepared`, the passages of a document prepared whole) and marks the
   * document ready, if the job still owns it.
   */
  private async commit(job: Running, doc: PreparedDocument, prepared?: readonly PreparedPassage[]): Promise<boolean> {
    const committed = await this.deps.documents.markReady(
      job,
      this.options.owner,
      this.readyFields(doc),
      this.now(),
      this.deps.passages.steps,
      prepared,
    );
    if (!committed) return false;
    await this.committed(job);
    return true;
  }
}

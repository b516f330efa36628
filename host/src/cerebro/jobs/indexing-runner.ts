// The indexing queue: documents move queued → processing (with progress) → ready | failed (with a reason).
// State lives in SQLite, so after a crash or restart `start()` re-queues interrupted work (up to a number of
// attempts) and nothing uploaded is lost. Every job has a deadline: past it the worker thread is terminated and the
// document fails with a reason instead of hanging. Spaces take turns (DocumentRepo.nextQueued): one space's backlog
// delays another space's next document by at most the jobs already running.
import { randomInt, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { SqliteDatabase } from '../../storage/database.js';
import { storageFailureOf } from '../../storage/storage-failure.js';
import { reasons, type ExtractionErrorCode } from '../errors.js';
import { formatOf } from '../extract/extract.js';
import type { PreparePool } from '../extract/pool.js';
import type { PreparedDocument } from '../extract/prepare.js';
import type { PassageIndex } from '../index/passage-index.js';
import type { VectorSearch } from '../index/retriever.js';
import { ANALYSIS_END, AnalysisProgress } from './analysis-progress.js';
import { DocumentRepo } from './document-repo.js';
import { PROCESS_OWNER, ownerIsGone } from '../../storage/shared/process-owner.js';
import { type ProcessLeases, SqliteProcessLeases } from '../../storage/sqlite/process-leases.js';
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
}

export const DEFAULT_INDEXING_OPTIONS: IndexingOptions = {
  deadlineMs: 10 * 60_000,
  concurrency: 1,
  maxAttempts: 3,
  embedBatch: 32,
  leaseMs: 30_000,
  pollMs: 1000,
  owner: PROCESS_OWNER,
};

/** The lease of the passage purge: one process at a time deletes hidden passages. */
const PURGE_LEASE = 'purga-pasajes';

export interface IndexingDependencies {
  db: SqliteDatabase;
  index: PassageIndex;
  pool: PreparePool;
  vectors?: VectorSearch | null;
  /** Called whenever the searchable content of a space changes (ready, failed replacement, removal): clear caches. */
  onContentChanged?: (space: string) => void;
  /** Called on every state change of a document (for logs or live status). */
  onStateChanged?: (doc: DocumentStatus) => void;
  now?: () => Date;
  /** The folder stored document paths are relative to (the data folder); absent: paths are used as stored. */
  originalsRoot?: string;
  /**
   * Told of an error the runner survived (a full disk, a busy database) with where it happened; the runner never
   * throws out of a background step, so this is where such errors are logged.
   */
  onError?: (err: unknown, where: { stage: string; space?: string; id?: string }) => void;
  /** Called when a job met a full disk, before its failure is written: a chance to give back reserved space. */
  onDiskFull?: () => void;
}

class Cancelled extends Error {}

interface Running {
  space: string;
  id: string;
  version: number;
  runId: number;
  controller: AbortController;
}

/**
 * Passages deleted per purge transaction (~50-90 ms each on the benchmark machine). Smaller batches hold the
 * event loop less but leave the full-text index fragmented by many small delete segments: with 500, question
 * latency at 50,000 passages went from p50 5 ms to 16 ms after a fifth of the documents were replaced; with 5000 it
 * stays at 5 ms (npm run bench -- cerebro, "churn").
 */
export const PURGE_BATCH = 5000;

/** After a background step failed on storage (full disk, busy database), how long before it is tried again. */
export const STORAGE_RETRY_MS = 5000;

export class IndexingRunner {
  private readonly repo: DocumentRepo;
  private readonly options: IndexingOptions;
  private readonly running = new Map<string, Running>();
  private started = false;
  private purging = false;
  private stopping = false;
  private idleWaiters: (() => void)[] = [];
  /** Failures that could not be written (the disk was full), written again at the next retry. */
  private unwrittenFailures: { job: Running; code: ExtractionErrorCode; reason: string }[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private lastRenewal = 0;
  private readonly leases: ProcessLeases;

  constructor(
    private readonly deps: IndexingDependencies,
    options: Partial<IndexingOptions> = {},
  ) {
    this.repo = new DocumentRepo(deps.db);
    this.leases = new SqliteProcessLeases(deps.db);
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
  start(): { requeued: number; failed: number } {
    const taken = this.takeBackLost(true);
    let requeued = taken.requeued;
    const t = this.now();
    if (this.deps.vectors) {
      const model = this.deps.vectors.embedder.id;
      this.deps.db
        .transaction(() => {
          for (const doc of this.repo.rows(this.repo.stmt.staleVectors, model))
            requeued += this.repo.stmt.requeueStale.run(t, t, doc.space, doc.id, model).changes;
        })
        .immediate();
    }
    this.started = true;
    this.stopping = false;
    this.tickTimer = setInterval(() => this.tick(), this.options.pollMs);
    this.tickTimer.unref();
    this.pump();
    this.schedulePurge();
    return { requeued, failed: taken.failed };
  }

  /**
   * Jobs whose process is gone go back to the queue (or fail past their attempts); their half-stored runs are
   * abandoned to the purge. Each row is changed only if it is still the lost job it was read as.
   */
  private takeBackLost(orphans = false): { requeued: number; failed: number } {
    let requeued = 0;
    let failed = 0;
    const now = this.nowMs();
    const t = this.now();
    this.deps.db
      .transaction(() => {
        for (const doc of this.repo.rows(this.repo.stmt.unleased, now, this.options.owner)) {
          const owner = doc.leaseOwner;
          const expired = (doc.leaseUntil ?? 0) <= now;
          if (!expired && (owner === this.options.owner || !ownerIsGone(owner))) continue;
          const lost = [doc.space, doc.id, doc.version, owner] as const;
          if (doc.attempts >= this.options.maxAttempts) {
            if (this.repo.stmt.failLost.run('interrumpido', reasons.interrupted, t, t, ...lost).changes !== 1) continue;
            failed++;
          } else {
            if (this.repo.stmt.requeueLost.run(t, ...lost).changes !== 1) continue;
            requeued++;
          }
          this.deps.index.abandonDocumentRuns(doc.space, doc.id);
        }
        // At start: runs of documents no longer processing anywhere (removed or replaced while their process died).
        if (orphans) this.deps.index.abandonOrphanRuns();
      })
      .immediate();
    if (requeued + failed > 0) this.schedulePurge();
    return { requeued, failed };
  }

  /**
   * Every pollMs: renews this runner's leases (every third of a lease), stops jobs the database says are no longer
   * this runner's (replaced, removed or cancelled by another process), takes back lost jobs, and claims queued work
   * another process submitted.
   */
  private tick(): void {
    if (!this.started || this.stopping || !this.deps.db.open) return;
    try {
      const now = this.nowMs();
      if (this.running.size > 0 && now - this.lastRenewal >= this.options.leaseMs / 3) {
        this.lastRenewal = now;
        this.repo.stmt.renew.run(now + this.options.leaseMs, this.options.owner);
        this.dropDisowned();
      }
      this.takeBackLost();
    } catch (err) {
      this.survived(err, { stage: 'arriendo' });
    }
    this.pump();
  }

  /** Aborts running jobs whose row is no longer theirs. */
  private dropDisowned(): void {
    const leased = new Set(
      (this.repo.stmt.leased.all(this.options.owner) as { space: string; id: string; version: number }[]).map(
        (r) => `${r.space}\u0000${r.id}\u0000${r.version}`,
      ),
    );
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
  submit(space: string, file: SubmitDocument): DocumentStatus {
    const t = this.now();
    const mediaType = file.mediaType ?? 'application/octet-stream';
    const format = formatOf(file.name, mediaType);
    const existing = this.repo.getByName(space, file.name);
    if (existing) {
      this.cancel(space, existing.id);
      this.repo.stmt.requeueReplaced.run(
        mediaType,
        format,
        file.bytes,
        file.sha256 ?? null,
        file.path,
        t,
        t,
        space,
        existing.id,
      );
    } else {
      this.repo.stmt.insert.run(
        space,
        randomUUID(),
        file.name,
        mediaType,
        format,
        file.bytes,
        file.sha256 ?? null,
        file.path,
        t,
        t,
        t,
      );
    }
    const doc = this.repo.getByName(space, file.name)!;
    this.deps.onStateChanged?.(doc);
    this.pump();
    return doc;
  }

  /**
   * Deletes a document, stopping its job if running. Returns the removed record. The record goes at once and its
   * passages stop being searchable at once; the passages themselves (and their vectors) are deleted by the
   * background purge, so removing a large document does not hold the event loop for the length of a full-text
   * delete (~1 s for 35,000 passages).
   */
  remove(space: string, id: string): DocumentStatus | null {
    const doc = this.repo.get(space, id);
    if (!doc) return null;
    this.cancel(space, id);
    const removal = this.deps.db.transaction(() => {
      this.deps.index.hideDocument(space, id);
      this.repo.stmt.delete.run(space, id);
    });
    const db = this.deps.db;
    if (db.inTransaction) {
      // Inside a caller's transaction the foreign-key switch below is a no-op: delete everything now instead.
      const ids = this.deps.index.deleteDocument(space, id);
      this.deps.vectors?.store.delete(ids);
      this.repo.stmt.delete.run(space, id);
    } else {
      // The passages' foreign key to their document (an immutable migration) would keep the record until the last
      // passage is gone. Enforcement is switched off for this one synchronous transaction only: the passages it
      // leaves without a document are hidden, never read, and deleted by the purge (or at the next start-up).
      db.pragma('foreign_keys = OFF');
      try {
        removal();
      } finally {
        db.pragma('foreign_keys = ON');
      }
    }
    this.deps.onContentChanged?.(space);
    this.pump();
    this.schedulePurge();
    return doc;
  }

  /** Deletes every document of a space (when the space itself is deleted). Returns how many were removed. */
  removeSpace(space: string): number {
    const ids = this.repo.stmt.spaceDocs.all(space) as string[];
    for (const id of ids) this.remove(space, id);
    this.repo.stmt.forgetTurn.run(space);
    return ids.length;
  }

  document(space: string, id: string): DocumentStatus | null {
    return this.repo.get(space, id);
  }

  documentByName(space: string, name: string): DocumentStatus | null {
    return this.repo.getByName(space, name);
  }

  list(space: string, page: { limit: number; offset: number }): { total: number; documents: DocumentStatus[] } {
    return {
      total: this.repo.stmt.count.get(space) as number,
      documents: this.repo.rows(this.repo.stmt.list, space, page.limit, page.offset),
    };
  }

  status(space: string): SpaceIndexingStatus {
    const documents = this.repo.rows(this.repo.stmt.all, space);
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
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    // A job aborted by stop() settles after the host has closed the database: nothing can run any more, so idle
    // (asking the closed database would throw inside that job's promise chain, an unhandled rejection).
    if (!this.deps.db.open) return true;
    return this.running.size === 0 && !this.purging && !this.repo.hasQueued();
  }

  private wakeIdleWaiters(): void {
    let idle: boolean;
    try {
      idle = this.isIdle();
    } catch {
      return; // the queue could not be read; the next pump or retry asks again
    }
    if (idle) for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * Deletes hidden passages waiting for it (old versions, abandoned runs, failed or removed documents) in bounded
   * transactions, one per event-loop turn, so a large document is removed without holding the loop for long.
   */
  private schedulePurge(): void {
    if (this.purging || !this.started || this.stopping) return;
    this.purging = true;
    const step = () => {
      if (!this.started || this.stopping || !this.deps.db.open) {
        this.purging = false;
        return;
      }
      let removed = 0;
      let leased = false;
      try {
        // One process purges at a time: two deleting the same passages would only fight over the write lock.
        leased = this.leases.acquire(PURGE_LEASE, this.options.owner, this.nowMs(), this.options.leaseMs);
        if (leased) removed = this.deps.index.purge(PURGE_BATCH, (ids) => this.deps.vectors?.store.delete(ids)).length;
      } catch {
        removed = 0; // retried at the next start-up; never a crash of the server
      }
      if (removed === PURGE_BATCH) {
        setImmediate(step);
        return;
      }
      try {
        if (leased) this.leases.release(PURGE_LEASE, this.options.owner);
      } catch {
        // The lease runs out by itself.
      }
      this.purging = false;
      this.wakeIdleWaiters();
    };
    setImmediate(step);
  }

  /** Stops taking work; running jobs are aborted and re-queued so the next start resumes them. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = null;
    const t = this.now();
    for (const job of this.running.values()) {
      this.repo.stmt.requeue.run(t, job.space, job.id, job.version, this.options.owner);
      job.controller.abort(new Cancelled('stopping'));
    }
    this.running.clear();
    this.started = false;
  }

  private cancel(space: string, id: string): void {
    const job = this.running.get(`${space}\u0000${id}`);
    if (!job) return;
    this.running.delete(`${space}\u0000${id}`);
    job.controller.abort(new Cancelled('superseded'));
  }

  /**
   * Starts queued jobs up to the concurrency. Runs from request handlers and from the end of every job: it never
   * throws, since an error here (a full disk on the claim) would be an unhandled rejection that ends the process;
   * a step that fails is tried again after STORAGE_RETRY_MS.
   */
  private pump(): void {
    if (!this.started || this.stopping) return;
    try {
      this.claimQueued();
    } catch (err) {
      this.survived(err, { stage: 'cola' });
    }
    this.wakeIdleWaiters();
  }

  private claimQueued(): void {
    while (this.running.size < this.options.concurrency) {
      const next = this.repo.nextQueued();
      if (!next) break;
      const t = this.now();
      const now = Date.parse(t);
      const deadline = new Date(now + this.options.deadlineMs).toISOString();
      const lease = now + this.options.leaseMs;
      const claimed =
        this.repo.stmt.claim.run(t, deadline, t, this.options.owner, lease, next.space, next.id, next.version)
          .changes === 1;
      if (!claimed) continue;
      this.repo.markServed(next.space);
      const job: Running = {
        space: next.space,
        id: next.id,
        version: next.version,
        runId: randomInt(2 ** 47),
        controller: new AbortController(),
      };
      this.running.set(`${job.space}\u0000${job.id}`, job);
      this.changed(job);
      void this.run(job, next)
        .catch((err: unknown) => this.survived(err, { stage: 'trabajo', space: job.space, id: job.id }))
        .finally(() => {
          if (this.running.get(`${job.space}\u0000${job.id}`) === job)
            this.running.delete(`${job.space}\u0000${job.id}`);
          this.pump();
        });
    }
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
      this.writeUnwrittenFailures();
      this.pump();
    }, STORAGE_RETRY_MS);
    this.retryTimer.unref();
  }

  private changed(job: Running): void {
    const doc = this.repo.get(job.space, job.id);
    if (doc) this.deps.onStateChanged?.(doc);
  }

  /** Writes progress; a job whose row is no longer its own (another process replaced or removed it) stops here. */
  private progress(job: Running, value: number, stage: string): void {
    const owned = this.repo.stmt.progress.run(
      value,
      stage,
      this.now(),
      job.space,
      job.id,
      job.version,
      this.options.owner,
    );
    if (owned.changes !== 1) {
      job.controller.abort(new Cancelled('superseded'));
      return;
    }
    this.changed(job);
  }

  private fail(job: Running, code: ExtractionErrorCode, reason: string): void {
    const t = this.now();
    // Only the job that still owns the document (same version, still processing) may fail it and drop its passages.
    let owned: boolean;
    try {
      owned = this.deps.db
        .transaction(() => {
          if (
            this.repo.stmt.fail.run(code, reason, t, t, job.space, job.id, job.version, this.options.owner).changes !==
            1
          )
            return false;
          this.deps.index.hideDocument(job.space, job.id);
          return true;
        })
        .immediate();
    } catch (err) {
      // Not even the failure could be written (a full disk): kept and written at the next retry; until then the
      // document stays `processing`, and a restart re-queues it.
      this.unwrittenFailures.push({ job, code, reason });
      this.survived(err, { stage: 'fallo', space: job.space, id: job.id });
      return;
    }
    if (!owned) return;
    this.changed(job);
    this.deps.onContentChanged?.(job.space);
    this.schedulePurge();
  }

  private writeUnwrittenFailures(): void {
    for (const failure of this.unwrittenFailures.splice(0)) this.fail(failure.job, failure.code, failure.reason);
  }

  private async run(job: Running, doc: DocumentStatus): Promise<void> {
    const { signal } = job.controller;
    const timer = setTimeout(() => job.controller.abort(new Error('deadline')), this.options.deadlineMs);
    let swapped = false;
    try {
      // Passages are stored batch by batch, hidden from searches, while the worker analyses the rest: flat memory
      // and short transactions. A batch arriving after the job was cancelled is dropped. Stages: extrayendo (until
      // the first passages), analizando (by text seen), vectorizando (by passages embedded), guardando (the swap).
      const analysis = new AnalysisProgress(doc.bytes);
      const result = await this.deps.pool.prepare(
        {
          path: resolve(this.deps.originalsRoot ?? '', doc.path),
          name: doc.name,
          mediaType: doc.mediaType,
          timeoutMs: this.options.deadlineMs,
        },
        signal,
        (batch) => {
          if (signal.aborted) return;
          this.deps.index.addHidden(job, batch);
          const value = analysis.add(batch);
          if (value !== null) this.progress(job, value, 'analizando');
        },
      );
      signal.throwIfAborted();
      if (!result.ok) {
        this.fail(job, result.error.code, result.error.reason);
        return;
      }
      const embeds = !!this.deps.vectors && result.document.passageCount > 0;
      this.progress(job, ANALYSIS_END, embeds ? 'vectorizando' : 'guardando');
      await this.embed(job, result.document);
      if (embeds) this.progress(job, 0.95, 'guardando');
      signal.throwIfAborted();
      swapped = this.commit(job, result.document);
    } catch (err) {
      if (signal.aborted && signal.reason instanceof Cancelled) return; // replaced, removed or stopping: not a failure
      const storage = storageFailureOf(err);
      if (signal.aborted) this.fail(job, 'tiempo_agotado', reasons.timeout(Math.round(this.options.deadlineMs / 1000)));
      else if (storage?.kind === 'full') {
        this.survived(err, { stage: 'indexación', space: job.space, id: job.id });
        this.deps.onDiskFull?.();
        this.fail(job, 'sin_espacio', reasons.diskFull);
      } else this.fail(job, 'error_interno', reasons.internal);
      // Other errors are not logged here: they may quote document text; onStateChanged carries the failure.
    } finally {
      clearTimeout(timer);
      // A run that was not swapped in leaves its passages for the purge (unless the host already closed the
      // database on shutdown: start-up abandons every run then).
      if (!swapped && this.deps.db.open) {
        try {
          this.deps.index.abandonRun(job);
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
      const passages = this.deps.index.runPassages(job, afterOrd, this.options.embedBatch);
      if (passages.length === 0) break;
      afterOrd = passages[passages.length - 1]!.ord;
      const texts = passages.map((p) => (p.headings.length ? `${p.headings.join(' › ')}\n${p.text}` : p.text));
      const embedded = await vectors.embedder.embed(texts, 'passage');
      job.controller.signal.throwIfAborted();
      vectors.store.put(
        job.space,
        passages.map((p) => p.id),
        embedded,
      );
      done += passages.length;
      this.progress(job, 0.6 + 0.35 * Math.min(1, done / doc.passageCount), 'vectorizando');
    }
  }

  /** Swaps the run's passages in and marks the document ready, if the job still owns it. */
  private commit(job: Running, doc: PreparedDocument): boolean {
    const t = this.now();
    const committed = this.deps.db
      .transaction(() => {
        const current = this.repo.get(job.space, job.id);
        if (
          !current ||
          current.version !== job.version ||
          current.state !== 'processing' ||
          current.leaseOwner !== this.options.owner
        )
          return false;
        const passages = this.deps.index.swapIn(job);
        this.repo.stmt.ready.run(
          passages,
          doc.chars,
          doc.pages,
          doc.lang,
          doc.title,
          doc.encoding,
          this.deps.vectors?.embedder.id ?? null,
          t,
          t,
          job.space,
          job.id,
          job.version,
          this.options.owner,
        );
        return true;
      })
      .immediate();
    if (!committed) return false;
    this.changed(job);
    this.deps.onContentChanged?.(job.space);
    this.schedulePurge();
    return true;
  }
}

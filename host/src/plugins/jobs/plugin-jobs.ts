// One plugin's `HostServices.Jobs`: the queue lives in the host database (PluginJobRepository), so every process
// sharing the data folder sees the same jobs; this class enqueues, cancels and reads them, and in processes that run
// background work (roles todo and worker) claims due jobs for the handlers the plugin registered, renews their
// leases, stops the ones cancelled elsewhere and takes back the jobs of processes that are gone.
import { randomUUID } from 'node:crypto';
import {
  type Clock,
  type EnqueuedJob,
  type EnqueueOptions,
  type JobContext,
  type JobHandler,
  type JobInfo,
  type JobPayload,
  type JobsService,
  type JobStopReason,
  type Logger,
} from '@cerebro/sdk';
import type { PluginJobRecord, PluginJobRepository } from '../../storage/port/plugin-job-repository.js';

export interface PluginJobsOptions {
  /** Whether this process claims and runs jobs (roles todo and worker). */
  runsJobs: boolean;
  /** This process as the owner of its leases. */
  owner: string;
  /** Business time: when jobs are due, when schedules repeat (the host's clock). */
  clock: Clock;
  /** How often due jobs, cancels and lost leases are looked at. */
  pollMs: number;
  /** How long a claim holds after its last renewal (renewed every third of it). */
  leaseMs: number;
  /** Finished jobs are forgotten this long after they end. */
  keepFinishedMs: number;
  /** Whether the owner of a lease is certainly gone (its pid no longer exists). */
  ownerIsGone(owner: string | null): boolean;
}

interface Registered {
  handler: JobHandler;
  concurrency: number;
  running: number;
}

interface Running {
  record: PluginJobRecord;
  controller: AbortController;
  done: Promise<void>;
}

/** Ticks between two looks for lost jobs (a dead owner's job is taken back within this many polls). */
const TAKE_BACK_EVERY_TICKS = 4;

/** Longest error text kept on a failed job (a message, not a stack). */
const MAX_ERROR_CHARS = 500;

const toInfo = (r: PluginJobRecord): JobInfo => ({
  id: r.id,
  kind: r.kind,
  space: r.space,
  payload: JSON.parse(r.payload) as JobPayload,
  key: r.key,
  state: r.state,
  progress: r.progress,
  attempts: r.attempts,
  runAt: r.runAt,
  everyMs: r.everyMs,
  cancelRequested: r.cancelRequested,
  error: r.error,
});

export class PluginJobs implements JobsService {
  private readonly handlers = new Map<string, Registered>();
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private ticking = false;
  private pumping = false;
  private pumpAgain = false;
  private lastRenewal = 0;
  private lastForget = 0;
  private ticks = 0;

  constructor(
    private readonly plugin: string,
    private readonly repo: PluginJobRepository,
    private readonly options: PluginJobsOptions,
    private readonly log: Logger,
  ) {}

  get runsJobs(): boolean {
    return this.options.runsJobs;
  }

  private at(): string {
    return new Date(this.options.clock.now()).toISOString();
  }

  async enqueue(kind: string, payload: JobPayload, options: EnqueueOptions): Promise<EnqueuedJob> {
    if (!kind || !options.space) throw new TypeError('Jobs.enqueue needs a kind and a space.');
    const { everyMs = null, runAt = this.options.clock.now(), key = null } = options;
    if (everyMs !== null && !(Number.isInteger(everyMs) && everyMs >= 1))
      throw new RangeError('Jobs.enqueue: everyMs must be a whole number of milliseconds, at least 1.');
    if (!Number.isFinite(runAt)) throw new RangeError('Jobs.enqueue: runAt must be a time in ms.');
    const { job, created } = await this.repo.enqueue({
      id: randomUUID(),
      plugin: this.plugin,
      kind,
      space: options.space,
      payload: JSON.stringify(payload),
      key,
      runAt: Math.floor(runAt),
      everyMs,
      at: this.at(),
    });
    if (created) this.pump();
    return { id: job.id, created };
  }

  handle(kind: string, handler: JobHandler, options: { concurrency?: number } = {}): void {
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError('Jobs.handle: concurrency must be a whole number, at least 1.');
    if (this.handlers.has(kind)) throw new Error(`Jobs.handle: the kind "${kind}" already has a handler.`);
    this.handlers.set(kind, { handler, concurrency, running: 0 });
    if (!this.options.runsJobs || this.stopped) return;
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), this.options.pollMs);
      this.timer.unref();
      void this.tick(); // jobs left by gone processes are taken back at once
    }
    this.pump();
  }

  async cancel(id: string): Promise<'cancelled' | 'cancelling' | null> {
    const result = await this.repo.cancel(this.plugin, id, this.at());
    // A job running here stops now; one running in another process stops at that process's next look.
    if (result === 'cancelling') this.running.get(id)?.controller.abort('cancel' satisfies JobStopReason);
    return result;
  }

  async get(id: string): Promise<JobInfo | null> {
    const record = await this.repo.get(this.plugin, id);
    return record && toInfo(record);
  }

  async byKey(key: string): Promise<JobInfo | null> {
    const record = await this.repo.byKey(this.plugin, key);
    return record && toInfo(record);
  }

  /**
   * Stops claiming, aborts the running handlers (`'shutdown'`) and waits for them to settle: a handler that rejects
   * leaves its job queued for another process (or the next start), one that resolves ends it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const all = [...this.running.values()];
    for (const job of all) job.controller.abort('shutdown' satisfies JobStopReason);
    await Promise.all(all.map((job) => job.done));
  }

  /** Renews leases, stops jobs cancelled or lost elsewhere, takes back lost jobs, then claims due ones. */
  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const wall = Date.now();
      if (this.running.size > 0) {
        // Read every tick while jobs run (a cancel asked in another process is seen within pollMs), renewed every
        // third of a lease.
        const renew = wall - this.lastRenewal >= this.options.leaseMs / 3;
        const { owner, leaseMs } = this.options;
        this.follow(renew ? await this.repo.renewLeases(owner, wall + leaseMs) : await this.repo.held(owner));
        if (renew) this.lastRenewal = wall;
      }
      // Lost jobs are looked for every few ticks (and at the first one, when a process starts).
      if (this.ticks++ % TAKE_BACK_EVERY_TICKS === 0)
        await this.repo.takeBackLost({
          owner: this.options.owner,
          now: wall,
          at: this.at(),
          ownerIsGone: this.options.ownerIsGone,
        });
      if (wall - this.lastForget >= 600_000) {
        this.lastForget = wall;
        await this.repo.forgetFinished(new Date(this.options.clock.now() - this.options.keepFinishedMs).toISOString());
      }
    } catch (err) {
      this.log.error({ err, plugin: this.plugin }, 'no se pudieron revisar los trabajos del plugin');
    } finally {
      this.ticking = false;
    }
    this.pump();
  }

  /** Aborts running jobs the database no longer gives this process, and those whose cancel was asked. */
  private follow(held: readonly { id: string; cancelRequested: boolean }[]): void {
    const byId = new Map(held.map((h) => [h.id, h]));
    for (const [id, job] of this.running) {
      const row = byId.get(id);
      if (!row) job.controller.abort('lost' satisfies JobStopReason);
      else if (row.cancelRequested) job.controller.abort('cancel' satisfies JobStopReason);
    }
  }

  /** Claims due jobs for every kind with a free slot; claims never overlap (one pump at a time). */
  private pump(): void {
    if (!this.options.runsJobs || this.stopped || this.handlers.size === 0) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.claimDue()
      .catch((err: unknown) => this.log.error({ err, plugin: this.plugin }, 'no se pudo tomar un trabajo del plugin'))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async claimDue(): Promise<void> {
    const now = this.options.clock.now();
    const free = [...this.handlers].filter(([, r]) => r.running < r.concurrency).map(([kind]) => kind);
    if (free.length === 0 || !(await this.repo.hasDue(this.plugin, free, now))) return;
    for (const kind of free) {
      const registered = this.handlers.get(kind)!;
      while (!this.stopped && registered.running < registered.concurrency) {
        const wall = Date.now();
        const record = await this.repo.claimNext(this.plugin, kind, {
          owner: this.options.owner,
          now: this.options.clock.now(),
          leaseUntil: wall + this.options.leaseMs,
          at: this.at(),
        });
        if (!record) break;
        if (this.running.size === 0) this.lastRenewal = wall;
        this.launch(record, registered);
      }
    }
  }

  private launch(record: PluginJobRecord, registered: Registered): void {
    if (this.stopped) {
      // Claimed while the process began stopping: back to the queue at once, never run after the plugin is disposed.
      void this.repo
        .release(record.id, this.options.owner, this.at())
        .catch((err: unknown) => this.log.error({ err, plugin: this.plugin }, 'no se pudo devolver un trabajo'));
      return;
    }
    const controller = new AbortController();
    if (record.cancelRequested) controller.abort('cancel' satisfies JobStopReason);
    const context: JobContext = {
      id: record.id,
      kind: record.kind,
      space: record.space,
      payload: JSON.parse(record.payload) as JobPayload,
      attempt: record.attempts,
      signal: controller.signal,
      progress: (value) =>
        this.repo.progress(record.id, this.options.owner, Math.min(1, Math.max(0, value)), this.at()),
    };
    registered.running++;
    const done = Promise.resolve()
      .then(() => registered.handler(context))
      .then(
        () => this.settle(record, controller.signal, null),
        (err: unknown) => this.settle(record, controller.signal, err ?? new Error('rechazado')),
      )
      .catch((err: unknown) =>
        this.log.error({ err, plugin: this.plugin, trabajo: record.id }, 'no se pudo cerrar un trabajo del plugin'),
      )
      .finally(() => {
        registered.running--;
        this.running.delete(record.id);
        this.pump();
      });
    this.running.set(record.id, { record, controller, done });
  }

  /** Writes how the handler's run ended, unless the job is no longer this process's. */
  private async settle(record: PluginJobRecord, signal: AbortSignal, err: unknown): Promise<void> {
    const reason = signal.aborted ? (signal.reason as JobStopReason) : null;
    const { owner } = this.options;
    if (reason === 'lost') return;
    if (reason === 'shutdown' && err !== null) {
      await this.repo.release(record.id, owner, this.at());
      return;
    }
    if (err !== null && reason !== 'cancel')
      this.log.warn(
        { plugin: this.plugin, trabajo: record.id, tipo: record.kind, err: (err as Error)?.message },
        'trabajo del plugin fallido',
      );
    const error = err === null ? null : String((err as Error)?.message ?? err).slice(0, MAX_ERROR_CHARS);
    await this.repo.finish(record.id, owner, {
      state: reason === 'cancel' ? 'cancelled' : err === null ? 'done' : 'failed',
      error: reason === 'cancel' ? null : error,
      now: this.options.clock.now(),
      at: this.at(),
    });
  }
}

/**
 * Durable background work of a plugin (`HostServices.Jobs`, sdk 2.1): jobs are stored by the host in its shared
 * database, so however many Cerebro processes share a data folder, each job runs in one of them at a time, survives
 * a restart and is resumed by another process when the one running it dies.
 *
 * - A job is claimed atomically with a lease its process renews while the handler runs; only a lease that ran out,
 *   or whose process is gone, is taken back, never another live process's job.
 * - Jobs run only in processes that run background work (roles `todo` and `worker`); an `api` process enqueues,
 *   cancels and reads them, and a worker runs them.
 * - Due jobs of one kind take turns between spaces: the space served longest ago goes first, so a space with a
 *   long backlog delays another space's job by the jobs already running, never by its own line.
 * - A handler may run again for the same job after its process stopped or died (`attempt` counts the claims):
 *   write it so that running it again resumes or redoes the work, and give up there when it makes no sense to retry.
 */
export interface JobsService {
  /**
   * Stores a job of `kind` for `space`. With `key`, a job holding that key and not yet finished (queued or running)
   * is returned instead (`created: false`), so the same work is never queued twice, by any process.
   */
  enqueue(kind: string, payload: JobPayload, options: EnqueueOptions): Promise<EnqueuedJob>;
  /**
   * Registers the handler of `kind` in this process (at setup). Without `handle`, jobs of a kind wait for a process
   * that handles them. `concurrency`: jobs of this kind this process runs at once (default 1).
   */
  handle(kind: string, handler: JobHandler, options?: { concurrency?: number }): void;
  /**
   * Cancels a job of this plugin: a queued one ends at once (`'cancelled'`: no handler will run it); a running one,
   * in whichever process, gets its signal aborted with reason `'cancel'` within about a second (`'cancelling'`) and
   * ends cancelled whatever its handler returns. Null when there is no such unfinished job.
   */
  cancel(id: string): Promise<'cancelled' | 'cancelling' | null>;
  /** A job of this plugin, or null (finished jobs are forgotten a day after they end). */
  get(id: string): Promise<JobInfo | null>;
  /** The unfinished job holding `key`, or null. */
  byKey(key: string): Promise<JobInfo | null>;
  /** Whether this process runs handlers (roles `todo` and `worker`); in `api` processes jobs only wait. */
  readonly runsJobs: boolean;
}

/** What a job carries to its handler: JSON. */
export type JobPayload = Record<string, unknown>;

export interface EnqueueOptions {
  /** The space the job works for: due jobs take turns between spaces. */
  space: string;
  /** Not before this moment (ms since the epoch, the host's clock); default now. */
  runAt?: number;
  /** Dedupe key: at most one unfinished job of the plugin holds it. */
  key?: string;
  /**
   * A recurring job: each time it ends (done or failed) it is queued again to run `everyMs` after that moment,
   * until cancelled. One row is the schedule, so its turns run once however many processes run.
   */
  everyMs?: number;
}

export interface EnqueuedJob {
  id: string;
  /** False when an unfinished job already held the key (its id is returned). */
  created: boolean;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobInfo {
  id: string;
  kind: string;
  space: string;
  payload: JobPayload;
  key: string | null;
  state: JobState;
  /** 0–1, as the handler last reported it. */
  progress: number;
  /** Claims so far (1 in its first run). */
  attempts: number;
  /** When it runs next (ms, the host's clock). */
  runAt: number;
  everyMs: number | null;
  cancelRequested: boolean;
  /** The error message of a failed run. */
  error: string | null;
}

/** Why a running job's signal was aborted (`signal.reason`). */
export type JobStopReason = 'cancel' | 'shutdown' | 'lost';

export interface JobContext {
  id: string;
  kind: string;
  space: string;
  payload: JobPayload;
  /** 1 for the first claim; more after the job was taken back from a stopped or dead process. */
  attempt: number;
  /**
   * Aborted with a `JobStopReason`: `'cancel'` (the job ends cancelled), `'shutdown'` (this process stops: a
   * handler that rejects then leaves the job queued for another process; one that resolves ends it), `'lost'` (its
   * lease was taken back: another process has it, nothing this handler writes to the job counts).
   */
  signal: AbortSignal;
  /** Stores the job's progress (0–1); false once the job is no longer this process's (stop working). */
  progress(value: number): Promise<boolean>;
}

/** Runs one job: resolving ends it done, rejecting ends it failed (recurring jobs are queued again). */
export type JobHandler = (job: JobContext) => Promise<void>;

import { createToken } from '@cerebro/sdk';

export type PluginJobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** A plugin's job as stored (`HostServices.Jobs`). Times in ms since the epoch unless named `…At` text. */
export interface PluginJobRecord {
  id: string;
  plugin: string;
  kind: string;
  space: string;
  /** JSON text of the payload. */
  payload: string;
  key: string | null;
  state: PluginJobState;
  runAt: number;
  everyMs: number | null;
  attempts: number;
  progress: number;
  cancelRequested: boolean;
  /** The process whose job this is while running (never on the wire). */
  leaseOwner: string | null;
  leaseUntil: number | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** A job to store, queued; `at` is when (ISO text). */
export type NewPluginJob = Pick<
  PluginJobRecord,
  'id' | 'plugin' | 'kind' | 'space' | 'payload' | 'key' | 'runAt' | 'everyMs'
> & { at: string };

/** A claim: the job is `owner`'s until `leaseUntil` (ms, wall time) unless renewed; only jobs due by `now` (ms). */
export interface PluginJobLease {
  owner: string;
  now: number;
  leaseUntil: number;
  at: string;
}

/** How a running job ended, as its owner writes it. */
export interface PluginJobOutcome {
  state: 'done' | 'failed' | 'cancelled';
  error: string | null;
  /** The host clock's now (ms): a recurring job's next turn is `everyMs` after it. */
  now: number;
  at: string;
}

/** A job a process holds, as a renewal reports it: the owner aborts those whose cancel was asked for. */
export interface HeldPluginJob {
  id: string;
  cancelRequested: boolean;
}

/**
 * Plugins' durable jobs: the queue (due jobs taking turns between spaces per plugin and kind), leases, progress,
 * cancel, and schedules (recurring jobs). Every method is one transaction: a PostgreSQL implementation must give the
 * same atomicity. Every write of a running job names its owner and changes the row only while it still is that
 * owner's running job, so a job taken back from a lost lease can never be written by the process that lost it.
 */
export interface PluginJobRepository {
  /**
   * Stores a queued job, atomically with its dedupe: when `key` is held by an unfinished job of the plugin, nothing
   * is stored and that job is returned with `created: false`.
   */
  enqueue(job: NewPluginJob): Promise<{ job: PluginJobRecord; created: boolean }>;
  get(plugin: string, id: string): Promise<PluginJobRecord | null>;
  /** The unfinished job of the plugin holding `key`, or null. */
  byKey(plugin: string, key: string): Promise<PluginJobRecord | null>;
  /** Whether a job of one of the kinds is queued and due by `now` (a read, before claiming). */
  hasDue(plugin: string, kinds: readonly string[], now: number): Promise<boolean>;
  /**
   * Claims the next due job of the plugin's `kind`, atomically: of the spaces with due jobs, the one served longest
   * ago (never served first; ties: the earliest due job), its earliest due job. Two claimers never get the same job.
   * The claimed job is running, leased to the owner, its attempts counted. Null when none is due.
   */
  claimNext(plugin: string, kind: string, lease: PluginJobLease): Promise<PluginJobRecord | null>;
  /** Writes progress while the job is `owner`'s running job; false when it is not (the handler should stop). */
  progress(id: string, owner: string, value: number, at: string): Promise<boolean>;
  /** Renews every lease `owner` holds to `until`; returns the jobs it still holds, with their cancel requests. */
  renewLeases(owner: string, until: number): Promise<HeldPluginJob[]>;
  /** The jobs `owner` holds, with their cancel requests (a read between renewals). */
  held(owner: string): Promise<HeldPluginJob[]>;
  /**
   * Ends `owner`'s running job: done, failed or cancelled. A recurring job that was not cancelled is queued again
   * instead, `everyMs` after `outcome.now`, with its attempts cleared. False when the job was not `owner`'s.
   */
  finish(id: string, owner: string, outcome: PluginJobOutcome): Promise<boolean>;
  /** Gives `owner`'s running job back to the queue, its claim not counted (the process is stopping). */
  release(id: string, owner: string, at: string): Promise<boolean>;
  /**
   * Cancels an unfinished job of the plugin: a queued one ends cancelled at once (`'cancelled'`); a running one is
   * marked for its owner to stop (`'cancelling'`). Null when there is none.
   */
  cancel(plugin: string, id: string, at: string): Promise<'cancelled' | 'cancelling' | null>;
  /**
   * Puts back in the queue the running jobs whose lease ran out by `now` (wall ms) or whose owner is gone, never a
   * live lease of another owner nor the asker's own live jobs. They keep their attempts and cancel requests (the
   * next claimer's handler decides). Returns how many.
   */
  takeBackLost(request: {
    owner: string;
    now: number;
    at: string;
    ownerIsGone(owner: string | null): boolean;
  }): Promise<number>;
  /** Deletes jobs that ended before `before` (ISO text). Returns how many. */
  forgetFinished(before: string): Promise<number>;
}

export const PluginJobRepositoryToken = createToken<PluginJobRepository>('host:plugin-job-repository');

import { randomUUID } from 'node:crypto';
import { apiError, type JobContext, type JobsService, type JobStopReason, type Logger } from '@cerebro/sdk';
import type { RunStore } from '../store/run-store.js';
import type { SourceStore } from '../store/source-store.js';
import type { RunRecord, RunTrigger, SourceRecord } from '../store/source-model.js';
import { CrawlRun, type CrawlDeps } from './crawl-run.js';

/** The job kind of a run: one job per run, keyed by its source so a source has one run queued or running. */
export const RUN_JOB = 'ejecucion';
const runKey = (spaceId: string, sourceId: string) => `ejecucion:${spaceId}:${sourceId}`;

const CANCELLED_REASON = 'Cancelada a petición; se conserva lo leído hasta entonces.';
/** Reason of a run a crash cut that is not resumed (`reanudar` off, or cut again after being resumed). */
export const INTERRUPTED_REASON = 'El servidor se reinició durante la ejecución; se conserva lo leído hasta entonces.';
/** Claims of a run's job past which a run cut again and again is not resumed any more (no crash loop). */
const MAX_CLAIMS = 2;
/** How long a cancel waits for the process running the run to end it before ending it itself. */
const CANCEL_WAIT_MS = 5000;

interface RunPayload {
  fuente: string;
  ejecucion: string;
}

/** A run stopped by this process's shutdown: its job goes back to the queue and the run resumes elsewhere. */
class Stopping extends Error {}

/**
 * Launches, cancels and runs crawls as `HostServices.Jobs` jobs: the run record is written in the plugin's database
 * and its job in the host's shared queue, so one run per source exists however many processes share the data, it
 * runs in a process that runs background work (never in an `api` one), at most `ejecuciones_simultaneas` per process,
 * taking turns between spaces; a run whose process stops or dies is resumed once by another process.
 */
export class RunManager {
  /** Runs executing in this process (for health and metrics). */
  private executing = 0;
  /** Runs waiting in the shared queue, as last counted. */
  private waiting = 0;

  constructor(
    private readonly deps: CrawlDeps,
    private readonly sources: SourceStore,
    private readonly runs: RunStore,
    private readonly jobs: JobsService,
    private readonly log: Logger,
    private readonly options: { concurrentRuns: number; resume: boolean },
    /** Told of every run that ended, whatever its state (the webhook event `fuente.ejecucion_terminada`). */
    private readonly onFinished: (run: RunRecord) => void = () => {},
  ) {}

  /**
   * Registers the run handler, then ends the runs an earlier version left open without a job (their process is
   * gone): `fallida`, and with `reanudar` launched again (`reanudacion`).
   */
  async start(): Promise<void> {
    this.jobs.handle(RUN_JOB, (job) => this.runJob(job), {
      concurrency: Math.max(1, Math.floor(this.options.concurrentRuns)),
    });
    for (const run of await this.runs.leftByGoneProcesses()) {
      if ((await this.jobOf(run.spaceId, run.sourceId))?.runId === run.id) continue; // its job resumes it
      const again = this.options.resume ? await this.sources.get(run.spaceId, run.sourceId) : null;
      await this.finish(run.spaceId, run.id, 'fallida', INTERRUPTED_REASON);
      this.log.warn({ fuente: run.sourceId, ejecucion: run.id }, 'ejecución sin trabajo cortada por una caída');
      if (again) await this.launch(again, 'reanudacion').catch(() => undefined);
    }
    await this.recount();
  }

  /** Runs executing in this process, and runs waiting in the shared queue (for health and metrics). */
  counts(): { running: number; waiting: number } {
    return { running: this.executing, waiting: this.waiting };
  }

  /**
   * Queues a run of the source; 409 while one is queued or running, in any process (the job's key holds the
   * source). The run record is written first, so whichever process claims the job finds it.
   */
  async launch(source: SourceRecord, trigger: RunTrigger): Promise<RunRecord> {
    const run = await this.runs.create(source.spaceId, randomUUID(), source.id, trigger);
    const payload: RunPayload = { fuente: source.id, ejecucion: run.id };
    const { created } = await this.jobs.enqueue(
      RUN_JOB,
      { ...payload },
      {
        space: source.spaceId,
        key: runKey(source.spaceId, source.id),
      },
    );
    if (!created) {
      await this.runs.delete(source.spaceId, run.id);
      throw apiError('conflict', 'La fuente ya tiene una ejecución en curso: espera a que termine o cancélala.');
    }
    await this.recount();
    return run;
  }

  /**
   * Stops the source's run: a queued one ends at once, a running one (here or in another process) within about a
   * second, requests and pauses aborted. Answers the ended run; null when none is queued or running.
   */
  async cancel(spaceId: string, sourceId: string): Promise<RunRecord | null> {
    const job = await this.jobOf(spaceId, sourceId);
    if (!job) return null;
    const result = await this.jobs.cancel(job.id);
    if (result === null) return null; // it ended meanwhile
    {
      const deadline = Date.now() + CANCEL_WAIT_MS;
      // A running run is ended by its handler; a queued one (or one whose process does not answer) here.
      while (result === 'cancelling' && (await this.isOpen(spaceId, job.runId)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      await this.finish(spaceId, job.runId, 'cancelada', CANCELLED_REASON);
    }
    await this.recount();
    return this.runs.get(spaceId, job.runId);
  }

  private async jobOf(spaceId: string, sourceId: string): Promise<{ id: string; runId: string } | null> {
    const job = await this.jobs.byKey(runKey(spaceId, sourceId));
    return job && { id: job.id, runId: (job.payload as unknown as RunPayload).ejecucion };
  }

  private async isOpen(spaceId: string, runId: string): Promise<boolean> {
    const run = await this.runs.get(spaceId, runId);
    return run !== null && (run.estado === 'en_cola' || run.estado === 'ejecutando');
  }

  private async recount(): Promise<void> {
    this.waiting = await this.runs.countQueued().catch(() => this.waiting);
  }

  /** One run, in whichever process claimed its job. */
  private async runJob(job: JobContext): Promise<void> {
    const { fuente, ejecucion } = job.payload as unknown as RunPayload;
    const [source, run] = [await this.sources.get(job.space, fuente), await this.runs.get(job.space, ejecucion)];
    if (!source || !run || (run.estado !== 'en_cola' && run.estado !== 'ejecutando')) return; // deleted or ended
    if (job.signal.aborted) {
      await this.finish(job.space, run.id, 'cancelada', CANCELLED_REASON);
      return;
    }
    // Claimed again after its process died: resumed where the pages stand (read pages answer 304), once.
    if (job.attempt > 1) {
      const resume = this.options.resume && job.attempt <= MAX_CLAIMS;
      this.log.warn({ fuente, ejecucion, intento: job.attempt, reanudada: resume }, 'ejecución cortada por una caída');
      if (!resume) {
        await this.finish(job.space, run.id, 'fallida', INTERRUPTED_REASON);
        return;
      }
    }
    this.executing++;
    try {
      await this.runs.start(job.space, run.id);
      await this.recount();
      await this.execute(source, run.id, job.signal);
    } finally {
      this.executing--;
    }
  }

  private async execute(source: SourceRecord, runId: string, signal: AbortSignal): Promise<void> {
    const { spaceId } = source;
    try {
      const outcome = await new CrawlRun(this.deps, source, runId, signal).execute();
      if (outcome.kind === 'completed') await this.finish(spaceId, runId, 'completada', outcome.reason);
      else if (outcome.kind === 'failed') await this.finish(spaceId, runId, 'fallida', outcome.reason);
      else {
        const reason = signal.reason as JobStopReason;
        // Stopping: the run stays open and its job goes back to the queue; lost: another process has it now.
        if (reason === 'shutdown') throw new Stopping('el proceso se detiene');
        if (reason === 'lost') return;
        await this.finish(spaceId, runId, 'cancelada', CANCELLED_REASON);
      }
    } catch (err) {
      if (err instanceof Stopping) throw err;
      this.log.error({ err, fuente: source.id }, 'ejecución fallida por un error interno');
      await this.finish(spaceId, runId, 'fallida', 'Error interno durante la ejecución.');
      return;
    }
    const done = await this.runs.get(spaceId, runId);
    this.log.info(
      { fuente: source.id, ejecucion: runId, estado: done?.estado, contadores: done?.contadores, bytes: done?.bytes },
      'ejecución terminada',
    );
  }

  /** Ends a run and tells `onFinished` (once: a run already ended is not reported again). */
  private async finish(
    spaceId: string,
    runId: string,
    state: Parameters<RunStore['finish']>[2],
    reason: string | null,
  ): Promise<void> {
    if (!(await this.runs.finish(spaceId, runId, state, reason))) return;
    const ended = await this.runs.get(spaceId, runId);
    if (!ended) return;
    try {
      this.onFinished(ended);
    } catch (err) {
      this.log.error({ err, ejecucion: runId }, 'no se pudo publicar el fin de la ejecución');
    }
  }
}

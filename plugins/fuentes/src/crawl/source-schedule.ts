import { ApiError, type Clock, type JobContext, type JobsService, type Logger } from '@cerebro/sdk';
import type { SourceStore } from '../store/source-store.js';
import type { RunRecord, RunTrigger, SourceRecord } from '../store/source-model.js';

/** The job kind of a source's schedule: one recurring job per scheduled source, queued again after each turn. */
export const SCHEDULE_JOB = 'programada';
const scheduleKey = (spaceId: string, sourceId: string) => `programada:${spaceId}:${sourceId}`;
const HOUR_MS = 3_600_000;

/**
 * Sources with `cada_horas` launch themselves through a recurring `HostServices.Jobs` job: the job's row is the
 * schedule, so each turn is taken by one process however many share the data folder (an `api` process never takes
 * it), and its next turn comes `cada_horas` after this one. A turn that finds the source's run still going waits for
 * the next one.
 */
export class SourceSchedule {
  constructor(
    private readonly sources: SourceStore,
    private readonly jobs: JobsService,
    private readonly launch: (source: SourceRecord, trigger: RunTrigger) => Promise<RunRecord>,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /**
   * Registers the turn handler and makes sure every scheduled source has its job (sources created before jobs, or
   * whose job was lost): enqueuing is keyed by the source, so this never doubles a schedule another process keeps.
   */
  async start(): Promise<void> {
    this.jobs.handle(SCHEDULE_JOB, (job) => this.turn(job));
    for (const source of await this.sources.scheduled()) await this.ensure(source);
  }

  /** Queues the source's schedule at its next turn, unless it already has one. */
  async ensure(source: SourceRecord): Promise<void> {
    if (!source.cadaHoras || source.nextRunAt === null) return;
    await this.jobs.enqueue(
      SCHEDULE_JOB,
      { fuente: source.id },
      {
        space: source.spaceId,
        key: scheduleKey(source.spaceId, source.id),
        runAt: source.nextRunAt,
        everyMs: Math.round(source.cadaHoras * HOUR_MS),
      },
    );
  }

  /** Ends the schedule of a source being deleted. */
  async forget(spaceId: string, sourceId: string): Promise<void> {
    const job = await this.jobs.byKey(scheduleKey(spaceId, sourceId));
    if (job) await this.jobs.cancel(job.id);
  }

  private async turn(job: JobContext): Promise<void> {
    const source = await this.sources.get(job.space, String(job.payload.fuente));
    if (!source?.cadaHoras) {
      await this.jobs.cancel(job.id); // the source is gone or no longer scheduled: so is its schedule
      return;
    }
    // What the source shows as its next launch; the job's own next turn is the same moment.
    await this.sources.scheduleNext(source, this.clock.now());
    try {
      await this.launch(source, 'programada');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'conflict')
        this.log.info({ fuente: source.id }, 'turno programado omitido: la fuente sigue ejecutándose');
      else throw err;
    }
  }
}

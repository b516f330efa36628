import { randomUUID } from 'node:crypto';
import { apiError, FairSlots, type Clock, type Logger } from '@cerebro/sdk';
import type { RunStore } from '../store/run-store.js';
import type { SourceStore } from '../store/source-store.js';
import type { RunRecord, RunTrigger, SourceRecord } from '../store/source-model.js';
import { CrawlRun, type CrawlDeps } from './crawl-run.js';

/** Why a run's signal fired: the state and reason it ends with. */
const ABORTS = {
  cancel: { state: 'cancelada', reason: 'Cancelada a petición; se conserva lo leído hasta entonces.' },
  delete: { state: 'cancelada', reason: 'La fuente se eliminó.' },
  shutdown: {
    state: 'fallida',
    reason: 'El servidor se detuvo durante la ejecución; se conserva lo leído hasta entonces. Vuelve a lanzarla.',
  },
} as const;
type AbortKind = keyof typeof ABORTS;

/** Reason given at start to runs a previous process left open (it crashed while they ran). */
export const INTERRUPTED_REASON = 'El servidor se reinició durante la ejecución; se conserva lo leído hasta entonces.';
const RESUMED_REASON = `${INTERRUPTED_REASON} Se relanzó al arrancar (origen "reanudacion").`;

interface ActiveRun {
  /** The run's record once created (the source is taken from the moment `launch` is called). */
  run: Promise<RunRecord>;
  controller: AbortController;
  done: Promise<void>;
}

const key = (spaceId: string, sourceId: string) => `${spaceId}\u0000${sourceId}`;

/**
 * Launches, cancels and schedules runs: one run per source at a time, at most `maxConcurrent` running at once
 * (the rest wait `en_cola`, taking turns between spaces: a space with many runs waiting delays another space's
 * run by the runs already going, never by its own line), and none left `ejecutando` after a crash or a stop.
 */
export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  private readonly slots: FairSlots;
  private timer: NodeJS.Timeout | undefined;
  /** A check of the schedule still going: the next tick skips rather than overlap it. */
  private checking = false;
  private stopped = false;

  constructor(
    private readonly deps: CrawlDeps,
    private readonly sources: SourceStore,
    private readonly runs: RunStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    maxConcurrent: number,
    /** Told of every run that ended, whatever its state (the webhook event `fuente.ejecucion_terminada`). */
    private readonly onFinished: (run: RunRecord) => void = () => {},
  ) {
    this.slots = new FairSlots(maxConcurrent);
  }

  /**
   * Ends runs a process that is gone left open (a crash: a stop ends its runs itself; runs of other live processes
   * sharing the database stay theirs) as `fallida` with the reason and,
   * with `resume`, launches each source again (`reanudacion`): pages read before the crash answer the conditional
   * requests with 304, so the new run goes quickly over them and on to the rest. A resumed run cut again is not
   * resumed a second time (no crash loop). Then starts the schedule.
   */
  async start(scheduleCheckMs: number, resume: boolean): Promise<void> {
    for (const run of await this.runs.leftByGoneProcesses()) {
      const again = resume && run.origen !== 'reanudacion' ? await this.sources.get(run.spaceId, run.sourceId) : null;
      await this.finish(run.spaceId, run.id, 'fallida', again ? RESUMED_REASON : INTERRUPTED_REASON);
      this.log.warn(
        { fuente: run.sourceId, ejecucion: run.id, reanudada: again !== null },
        'ejecución cortada por una caída: marcada fallida',
      );
      if (again) await this.launch(again, 'reanudacion');
    }
    this.timer = setInterval(() => void this.launchDue(), scheduleCheckMs);
    this.timer.unref();
  }

  /** Runs holding a slot, and runs waiting for one (for health and metrics). */
  counts(): { running: number; waiting: number } {
    return { running: this.slots.busy, waiting: this.slots.queued };
  }

  isRunning(spaceId: string, sourceId: string): boolean {
    return this.active.has(key(spaceId, sourceId));
  }

  /**
   * Starts a run of the source; 409 while one is queued or running. The source is taken before anything is
   * awaited, so two launches at once cannot both pass the check.
   */
  async launch(source: SourceRecord, trigger: RunTrigger): Promise<RunRecord> {
    if (this.stopped) throw apiError('not_ready');
    const k = key(source.spaceId, source.id);
    if (this.active.has(k))
      throw apiError('conflict', 'La fuente ya tiene una ejecución en curso: espera a que termine o cancélala.');
    const controller = new AbortController();
    const run = this.runs.create(source.spaceId, randomUUID(), source.id, trigger);
    const done = run
      .then(async (created) => {
        if (source.cadaHoras) await this.sources.scheduleNext(source, this.clock.now());
        await this.execute(source, created, controller.signal);
      })
      .catch((err: unknown) => this.log.error({ err, fuente: source.id }, 'no se pudo lanzar la ejecución'))
      .finally(() => this.active.delete(k));
    this.active.set(k, { run, controller, done });
    return run;
  }

  /** Stops the source's run (within about a second: requests and pauses are aborted). Null when none runs. */
  async cancel(spaceId: string, sourceId: string, kind: AbortKind = 'cancel'): Promise<RunRecord | null> {
    const entry = this.active.get(key(spaceId, sourceId));
    if (!entry) return null;
    entry.controller.abort(kind);
    await entry.done;
    const run = await entry.run.catch(() => null);
    return run && this.runs.get(spaceId, run.id);
  }

  /** Aborts every run (they end `fallida` with the reason) and waits for them; the schedule stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const entries = [...this.active.values()];
    for (const entry of entries) entry.controller.abort('shutdown');
    await Promise.all(entries.map((e) => e.done));
  }

  /**
   * Launches scheduled sources whose time has come (a source still running waits for its next turn). Each due
   * source is claimed first (its next turn written only if still due), so however many processes share the plugin's
   * database, one of them launches it.
   */
  async launchDue(): Promise<void> {
    if (this.stopped || this.checking) return;
    this.checking = true;
    try {
      for (const source of await this.sources.due(this.clock.now())) {
        if (this.stopped) return;
        if (!(await this.sources.claimDue(source, this.clock.now()))) continue; // another process took this turn
        if (this.isRunning(source.spaceId, source.id)) continue;
        try {
          await this.launch(source, 'programada');
        } catch (err) {
          this.log.error({ err, fuente: source.id }, 'no se pudo lanzar una ejecución programada');
        }
      }
    } catch (err) {
      this.log.error({ err }, 'no se pudo revisar la programación de las fuentes');
    } finally {
      this.checking = false;
    }
  }

  private async execute(source: SourceRecord, run: RunRecord, signal: AbortSignal): Promise<void> {
    let release: () => void;
    try {
      release = await this.slots.acquire(source.spaceId, signal);
    } catch {
      const abort = ABORTS[(signal.reason as AbortKind) ?? 'cancel'] ?? ABORTS.cancel;
      await this.finish(source.spaceId, run.id, abort.state, abort.reason);
      return;
    }
    try {
      await this.runs.start(source.spaceId, run.id);
      const outcome = await new CrawlRun(this.deps, source, run.id, signal).execute();
      if (outcome.kind === 'completed') await this.finish(source.spaceId, run.id, 'completada', outcome.reason);
      else if (outcome.kind === 'failed') await this.finish(source.spaceId, run.id, 'fallida', outcome.reason);
      else {
        const abort = ABORTS[signal.reason as AbortKind] ?? ABORTS.cancel;
        await this.finish(source.spaceId, run.id, abort.state, abort.reason);
      }
      const done = await this.runs.get(source.spaceId, run.id);
      this.log.info(
        {
          fuente: source.id,
          ejecucion: run.id,
          estado: done?.estado,
          contadores: done?.contadores,
          bytes: done?.bytes,
        },
        'ejecución terminada',
      );
    } catch (err) {
      this.log.error({ err, fuente: source.id }, 'ejecución fallida por un error interno');
      await this.finish(source.spaceId, run.id, 'fallida', 'Error interno durante la ejecución.');
    } finally {
      release();
    }
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

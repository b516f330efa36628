import type { CreditRefunds, JobContext, JobsService, JobStopReason, Logger, SpaceDirectory } from '@cerebro/sdk';
import type { FichaAssembler } from './assembler.js';
import { FichaFailure, type FichaRecord } from './ficha-model.js';
import type { FichaStore } from './ficha-store.js';

/** The job kind of a ficha's assembly, keyed by the ficha so it is queued once whoever queues it. */
export const FICHA_JOB = 'ficha';
const fichaKey = (spaceId: string, id: string) => `ficha:${spaceId}:${id}`;
/** Claims past which a ficha whose process keeps dying fails (with its refund) instead of being tried again. */
const MAX_CLAIMS = 3;

/** A ficha stopped by this process's shutdown: its job goes back to the queue and another process assembles it. */
class Stopping extends Error {}

/**
 * Assembles fichas one at a time per process as `HostServices.Jobs` jobs, taking turns between spaces: a space with
 * many fichas waiting delays another space's ficha by the one being assembled, never by its own line. Only processes
 * that run background work assemble (never an `api` one). A ficha that fails (or is cancelled because the space lost
 * the module) gives its credits back; one whose process stops or dies is assembled by another process (assembly has
 * no side effects), never twice at once.
 */
export class FichaRunner {
  /** Fichas queued or being assembled, across every process, as last counted. */
  private open = 0;

  constructor(
    private readonly store: FichaStore,
    private readonly assembler: FichaAssembler,
    private readonly refunds: CreditRefunds,
    private readonly spaces: SpaceDirectory,
    private readonly jobs: JobsService,
    private readonly log: Logger,
    /** Told of every ficha that ended (`lista`, `fallida` or `cancelada`): the webhook events `ficha.*`. */
    private readonly onFinished: (ficha: FichaRecord) => void = () => {},
  ) {}

  /**
   * Registers the assembly handler and makes sure every unfinished ficha has its job (fichas queued before jobs
   * existed): keyed by the ficha, so a ficha another live process is assembling is never queued again.
   */
  async start(): Promise<void> {
    this.jobs.handle(FICHA_JOB, (job) => this.run(job));
    const open = await this.store.open();
    let queued = 0;
    for (const ficha of open) if ((await this.queue(ficha)).created) queued++;
    if (queued) this.log.info({ fichas: queued }, 'fichas sin trabajo puestas en cola');
    await this.recount();
  }

  async enqueue(ficha: FichaRecord): Promise<void> {
    await this.queue(ficha);
    await this.recount();
  }

  private queue(ficha: FichaRecord) {
    return this.jobs.enqueue(
      FICHA_JOB,
      { ficha: ficha.id },
      { space: ficha.spaceId, key: fichaKey(ficha.spaceId, ficha.id) },
    );
  }

  /** Fichas waiting or being assembled. */
  get queued(): number {
    return this.open;
  }

  private async recount(): Promise<void> {
    this.open = await this.store.countOpen().catch(() => this.open);
  }

  private async run(job: JobContext): Promise<void> {
    const ficha = await this.store.get(job.space, String(job.payload.ficha));
    if (!ficha || (ficha.estado !== 'en_cola' && ficha.estado !== 'generando')) return;
    try {
      await this.assemble(ficha, job);
    } finally {
      await this.recount();
    }
  }

  private async assemble(ficha: FichaRecord, job: JobContext): Promise<void> {
    const { spaceId, id } = ficha;
    const { signal } = job;
    if (job.attempt > MAX_CLAIMS) {
      await this.end(ficha, 'fallida', 'La ficha se interrumpió varias veces por caídas del servidor.');
      return;
    }
    if (!(await this.spaces.moduleEnabled(spaceId, 'fuentes'))) {
      await this.end(
        ficha,
        'cancelada',
        'El módulo fuentes dejó de estar habilitado en el espacio antes de ensamblarla.',
      );
      return;
    }
    try {
      await this.store.start(spaceId, id);
      const result = await this.assembler.assemble(spaceId, ficha.request, signal, (p) =>
        this.progress(spaceId, id, p),
      );
      if (await this.store.finish(spaceId, id, 'lista', null, result)) await this.notify(spaceId, id);
      this.log.info(
        { ficha: id, campos: result.campos.length, sin_datos: result.campos.filter((c) => !c.encontrado).length },
        'ficha lista',
      );
    } catch (err) {
      const stop = signal.aborted ? (signal.reason as JobStopReason) : null;
      // Stopping: the ficha stays open and its job goes back to the queue; lost: another process has it now.
      if (stop === 'shutdown') throw new Stopping('el proceso se detiene');
      if (stop === 'lost') return;
      this.log.warn({ ficha: id, err: (err as Error).message }, 'ficha fallida');
      await this.end(
        ficha,
        'fallida',
        err instanceof FichaFailure ? err.message : 'Error interno al ensamblar la ficha.',
      );
    }
  }

  /** Progress is saved as it comes, without holding up the assembly; a failed save only loses that figure. */
  private progress(spaceId: string, id: string, value: number): void {
    this.store
      .progress(spaceId, id, Math.round(value * 100) / 100)
      .catch((err: unknown) =>
        this.log.warn({ ficha: id, err: (err as Error).message }, 'progreso de ficha no guardado'),
      );
  }

  /**
   * Refunds a ficha that ends without being assembled, then records its end. In that order: a client that sees
   * `fallida` and reads its balance next must find the credits back (on a database server the refund is a round
   * trip of its own, so refunding after the end left a window where it was not). Only the process holding the
   * ficha's job ends it, and the ledger gives a request's credits back once.
   */
  private async end(ficha: FichaRecord, state: 'fallida' | 'cancelada', reason: string): Promise<void> {
    const refunded = ficha.requestId
      ? await this.refunds.refund(ficha.spaceId, ficha.requestId).catch((err: unknown) => {
          this.log.error({ ficha: ficha.id, err: (err as Error).message }, 'no se pudo devolver créditos');
          return 0;
        })
      : 0;
    if (!(await this.store.finish(ficha.spaceId, ficha.id, state, reason, null))) return;
    await this.notify(ficha.spaceId, ficha.id);
    this.log.info(
      { ficha: ficha.id, estado: state, creditos_devueltos: refunded },
      'ficha terminada sin ensamblar: créditos devueltos',
    );
  }

  private async notify(spaceId: string, id: string): Promise<void> {
    const ended = await this.store.get(spaceId, id);
    if (!ended) return;
    try {
      this.onFinished(ended);
    } catch (err) {
      this.log.error({ ficha: id, err: (err as Error).message }, 'no se pudo publicar el fin de la ficha');
    }
  }
}

import { FairSlots, type CreditRefunds, type Logger, type SpaceDirectory } from '@cerebro/sdk';
import type { FichaAssembler } from './assembler.js';
import { FichaFailure, type FichaRecord } from './ficha-model.js';
import type { FichaStore } from './ficha-store.js';

/**
 * Assembles fichas one at a time in the background, taking turns between spaces: a space with many fichas waiting
 * delays another space's ficha by the one being assembled, never by its own line. A ficha that fails (or is cancelled because the space lost the
 * module) gives its credits back; one left unfinished by a stop or a crash is assembled again at the next start.
 */
export class FichaRunner {
  private readonly turns = new FairSlots(1);
  /** Fichas queued or being assembled by this process. */
  private readonly pending = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  constructor(
    private readonly store: FichaStore,
    private readonly assembler: FichaAssembler,
    private readonly refunds: CreditRefunds,
    private readonly spaces: SpaceDirectory,
    private readonly log: Logger,
    /** Told of every ficha that ended (`lista`, `fallida` or `cancelada`): the webhook events `ficha.*`. */
    private readonly onFinished: (ficha: FichaRecord) => void = () => {},
  ) {}

  /** Queues the fichas a previous process left open. */
  async resume(): Promise<number> {
    const open = await this.store.open();
    for (const ficha of open) this.enqueue(ficha);
    if (open.length) this.log.info({ fichas: open.length }, 'fichas sin terminar reanudadas');
    return open.length;
  }

  enqueue(ficha: FichaRecord): void {
    const job = this.turns
      .acquire(ficha.spaceId, this.controller.signal)
      .then(
        (release) => this.run(ficha).finally(release),
        () => undefined, // stopping: the ficha stays open and resumes at the next start
      )
      // Only its own bookkeeping can fail here (the database); it must not end the process.
      .catch((err: unknown) => this.log.error({ err, ficha: ficha.id }, 'ficha sin terminar por un error interno'));
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  /** Fichas waiting or being assembled. */
  get queued(): number {
    return this.pending.size;
  }

  /** Stops the current assembly; unfinished fichas stay open and resume at the next start. */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all(this.pending);
  }

  private async run(ficha: FichaRecord): Promise<void> {
    const { spaceId, id } = ficha;
    if (this.controller.signal.aborted) return;
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
      const result = await this.assembler.assemble(spaceId, ficha.request, this.controller.signal, (p) =>
        this.progress(spaceId, id, p),
      );
      if (await this.store.finish(spaceId, id, 'lista', null, result)) await this.notify(spaceId, id);
      this.log.info(
        { ficha: id, campos: result.campos.length, sin_datos: result.campos.filter((c) => !c.encontrado).length },
        'ficha lista',
      );
    } catch (err) {
      if (this.controller.signal.aborted) return; // stopping: stays open, resumes at the next start
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

  private async end(ficha: FichaRecord, state: 'fallida' | 'cancelada', reason: string): Promise<void> {
    if (!(await this.store.finish(ficha.spaceId, ficha.id, state, reason, null))) return;
    await this.notify(ficha.spaceId, ficha.id);
    const refunded = ficha.requestId
      ? await this.refunds.refund(ficha.spaceId, ficha.requestId).catch((err: unknown) => {
          this.log.error({ ficha: ficha.id, err: (err as Error).message }, 'no se pudo devolver créditos');
          return 0;
        })
      : 0;
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

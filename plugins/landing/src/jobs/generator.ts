// Runs the work of versions in `generando`, off the request: gather the catalog, ask what is missing, read the
// documents and the brand, build and check the page, store the outcome. At most `concurrency` at a time; each
// job has an AbortController so `cancelar` and DELETE stop it (the store's conditional update makes sure a
// cancelled version is never overwritten). Credits of a version that fails or is cancelled are refunded.
import type {
  BrandReader,
  CatalogProduct,
  CatalogReader,
  CerebroService,
  CreditRefunds,
  EventPublisher,
  Logger,
  SpaceDirectory,
} from '@cerebro/sdk';
import { subjectOf } from '../compose/copy.js';
import { briefQuestions, catalogFacts } from '../content/catalog.js';
import { documentFacts, factQuestions } from '../content/documents.js';
import { brandVoice } from '../content/voice.js';
import type { Landing, Version } from '../model.js';
import { applyInstructions, parseInstructions } from '../refine/instructions.js';
import { instructionsFromModel } from '../refine/model-instructions.js';
import type { LandingStore } from '../store/landing-store.js';
import { buildPage } from './build-page.js';

export interface GeneratorDeps {
  store: LandingStore;
  /** Resolved on each job: null when ventas is not installed. */
  catalog: () => CatalogReader | null;
  brand: () => BrandReader | null;
  spaces: SpaceDirectory;
  cerebro: CerebroService;
  credits: CreditRefunds;
  log: Logger;
  concurrency: number;
  /** Where `landing.version_lista` / `landing.version_fallida` go (the space's webhooks); absent: nowhere. */
  events?: EventPublisher;
}

interface Job {
  spaceId: string;
  landingId: string;
  numero: number;
}

const key = (j: Job) => `${j.spaceId}\u0000${j.landingId}\u0000${j.numero}`;

/** A version that cannot be built, with its reason and what it gathered on the way (kept with the failed version). */
class Failure extends Error {
  constructor(
    message: string,
    readonly hechos?: Version['hechos'],
  ) {
    super(message);
  }
}

export class LandingGenerator {
  private readonly queue: Job[] = [];
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private closed = false;

  constructor(private readonly deps: GeneratorDeps) {}

  /** Queues the work of a version in `generando`. */
  start(spaceId: string, landingId: string, numero: number): void {
    if (this.closed) return;
    this.queue.push({ spaceId, landingId, numero });
    this.pump();
  }

  /** Stops the work of a version (queued or running); its state was already moved by the caller. */
  stop(spaceId: string, landingId: string, numero: number): void {
    const job = { spaceId, landingId, numero };
    const at = this.queue.findIndex((j) => key(j) === key(job));
    if (at !== -1) this.queue.splice(at, 1);
    this.running.get(key(job))?.controller.abort();
  }

  /** Work in progress, for the health endpoint and metrics. */
  counts(): { en_curso: number; en_cola: number } {
    return { en_curso: this.running.size, en_cola: this.queue.length };
  }

  /** Aborts everything and waits: versions left `generando` resume at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    const running = [...this.running.values()];
    for (const r of running) r.controller.abort();
    await Promise.allSettled(running.map((r) => r.done));
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.deps.concurrency && this.queue.length > 0) {
      const job = this.queue.shift() as Job;
      if (this.running.has(key(job))) continue;
      const controller = new AbortController();
      const done = this.run(job, controller.signal)
        .catch((err) =>
          this.deps.log.error(
            { err, espacio: job.spaceId, landing: job.landingId, version: job.numero },
            'error inesperado al generar una landing',
          ),
        )
        .finally(() => {
          this.running.delete(key(job));
          this.pump();
        });
      this.running.set(key(job), { controller, done });
    }
  }

  private async run(job: Job, signal: AbortSignal): Promise<void> {
    const { store } = this.deps;
    const landing = await store.landing(job.spaceId, job.landingId);
    const version = await store.version(job.spaceId, job.landingId, job.numero);
    if (!landing || !version || version.estado !== 'generando') return;
    const started = Date.now();
    try {
      const outcome = await this.build(landing, version, signal);
      if (outcome.estado === 'lista') {
        if (await store.transition(job.spaceId, job.landingId, 'generando', outcome.version, outcome.html))
          this.publish(landing, outcome.version);
        this.deps.log.info(
          {
            espacio: job.spaceId,
            landing: job.landingId,
            version: job.numero,
            bytes: outcome.version.bytes,
            ms: Date.now() - started,
          },
          'landing lista',
        );
      } else {
        await store.transition(job.spaceId, job.landingId, 'generando', outcome.version);
      }
    } catch (err) {
      if (signal.aborted) return; // cancelled or deleted (already moved and refunded) or shutting down (resumes at start)
      const motivo =
        err instanceof Failure ? err.message : 'Error interno al generar la página; se devolvieron los créditos.';
      if (!(err instanceof Failure))
        this.deps.log.error(
          { err, espacio: job.spaceId, landing: job.landingId, version: job.numero },
          'fallo al generar una landing',
        );
      await this.fail(
        landing,
        err instanceof Failure && err.hechos ? { ...version, hechos: err.hechos } : version,
        motivo,
      );
    }
  }

  /**
   * Refunds a version, then moves it to `fallida` with its reason. In that order: a client that sees `fallida` ("se
   * devolvieron los créditos") and reads its balance next must find the credits back (on a database server the
   * refund is a round trip of its own, so refunding after the move left a window where it was not). Should the move
   * not take (the version was cancelled or deleted meanwhile), whoever moved it refunded too, and the ledger gives a
   * request's credits back only once.
   */
  private async fail(landing: Landing, version: Version, motivo: string): Promise<void> {
    await this.refund(landing.espacio, version);
    const failed: Version = { ...version, estado: 'fallida', motivo, terminada: this.deps.store.now() };
    if (await this.deps.store.transition(landing.espacio, landing.id, 'generando', failed)) {
      this.publish(landing, failed);
      this.deps.log.warn({ espacio: landing.espacio, landing: landing.id, version: version.numero }, 'landing fallida');
    }
  }

  /** The webhook event of a version that became `lista` or `fallida`; never fails the job. */
  private publish(landing: Landing, version: Version): void {
    try {
      this.deps.events?.publish(
        landing.espacio,
        version.estado === 'lista' ? 'landing.version_lista' : 'landing.version_fallida',
        {
          landing: landing.id,
          version: {
            numero: version.numero,
            estado: version.estado,
            motivo: version.motivo,
            terminada: version.terminada,
          },
        },
      );
    } catch (err) {
      this.deps.log.error({ err, landing: landing.id }, 'no se pudo publicar el evento de la landing');
    }
  }

  /**
   * Gives back what the version's request was charged (the host does it once: a repeated call returns 0). Resolves
   * once the ledger has it, so callers answer or move the version only after the balance shows it; a failure is
   * logged, never thrown (the version's outcome stands either way).
   */
  async refund(spaceId: string, version: Version): Promise<void> {
    if (version.creditos <= 0) return;
    try {
      await this.deps.credits.refund(spaceId, version.peticion);
    } catch (err) {
      this.deps.log.error({ err, espacio: spaceId, version: version.numero }, 'no se pudo devolver créditos');
    }
  }

  private async products(spaceId: string, wanted: readonly string[]): Promise<readonly CatalogProduct[]> {
    if (wanted.length === 0) return [];
    const reader = this.deps.catalog();
    if (!reader || !(await this.deps.spaces.moduleEnabled(spaceId, 'ventas'))) {
      throw new Failure(
        'Los productos, precios y existencias solo pueden salir del catálogo del módulo ventas, que este espacio no tiene disponible.',
      );
    }
    try {
      return await reader.products(spaceId);
    } catch {
      throw new Failure(
        'El catálogo del módulo ventas no respondió; se devolvieron los créditos. Vuelve a intentarlo.',
      );
    }
  }

  private async build(
    landing: Landing,
    version: Version,
    signal: AbortSignal,
  ): Promise<{ estado: 'lista' | 'faltan_datos'; version: Version; html: string | null }> {
    const { brief } = landing;
    let plan = version.plan;
    if (version.traducir && version.instrucciones) {
      const translated = await instructionsFromModel(this.deps.cerebro, version.instrucciones, signal);
      const parsed = translated === null ? null : parseInstructions(translated);
      if (!parsed || !parsed.ok)
        throw new Failure(
          'El modelo no pudo convertir las instrucciones en cambios de la página; se devolvieron los créditos. Usa las instrucciones documentadas.',
        );
      plan = applyInstructions(plan, parsed.instrucciones);
    }
    const products = await this.products(landing.espacio, brief.productos);
    signal.throwIfAborted();
    const catalog = catalogFacts(brief, products, version.respuestas);
    const preguntas = [...briefQuestions(brief, plan.secciones), ...catalog.preguntas];
    if (preguntas.length > 0) {
      return {
        estado: 'faltan_datos',
        html: null,
        version: {
          ...version,
          estado: 'faltan_datos',
          plan,
          traducir: false,
          preguntas,
          hechos: { ...version.hechos, catalogo: catalog.facts },
        },
      };
    }
    const avisos: string[] = [];
    // A refined version keeps the document facts (and their provenance) of the version it refines; a new page asks.
    let documents = version.hechos.documentos;
    if (version.origen === 'crear') {
      const questions = factQuestions(subjectOf(brief, catalog.facts), plan.secciones, brief.idioma);
      const found = await documentFacts(this.deps.cerebro, landing.espacio, questions, catalog.facts, signal);
      documents = found.facts;
      avisos.push(...found.avisos);
    }
    const voice = await brandVoice(this.deps.brand(), this.deps.spaces, landing.espacio);
    if (voice.aviso) avisos.push(voice.aviso);
    signal.throwIfAborted();
    const page = await buildPage(
      { brief, plan, catalog: catalog.facts, documents, voice: voice.voice },
      this.deps.cerebro,
      signal,
    );
    avisos.push(...page.avisos);
    const hechos = { catalogo: catalog.facts, documentos: documents };
    // The facts stay with a failed version too: its reason names figures, and the owner sees where they came from.
    if (!page.ok) throw new Failure(page.motivo, hechos);
    return {
      estado: 'lista',
      html: page.html,
      version: {
        ...version,
        estado: 'lista',
        plan,
        traducir: false,
        preguntas: [],
        hechos,
        marca: voice.voice,
        redaccion: page.redaccion,
        avisos: [...version.avisos, ...avisos],
        bytes: Buffer.byteLength(page.html, 'utf8'),
        terminada: this.deps.store.now(),
      },
    };
  }
}

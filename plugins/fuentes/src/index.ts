import { definePlugin, HostServices } from '@cerebro/sdk';
import { FichaAssembler } from './fichas/assembler.js';
import { FichaRunner } from './fichas/ficha-runner.js';
import { FichaStore } from './fichas/ficha-store.js';
import { fichaChecks, fichaHandlers, fichaView } from './routes/ficha-routes.js';
import { runView } from './routes/source-views.js';
import { FUENTES_ROUTES } from './routes/route-declarations.js';
import { HostLimiter } from './crawl/host-limiter.js';
import { RunManager } from './crawl/run-manager.js';
import { SourceSchedule } from './crawl/source-schedule.js';
import { PageReader } from './content/page-reader.js';
import { GuardedFetcher } from './fetch/http-fetcher.js';
import { fuentesMigrations } from './migrations.js';
import { fuentesPostgresMigrations } from './postgres-migrations.js';
import { sourceHandlers } from './routes/source-routes.js';
import { FUENTES_CONFIG, readSettings } from './settings.js';
import { PageStore } from './store/page-store.js';
import { RunStore } from './store/run-store.js';
import { SourceStore } from './store/source-store.js';

/** Errors per URL a `fuente.ejecucion_terminada` event carries (the run's API view has them all). */
const MAX_EVENT_ERRORS = 20;

/**
 * Module `fuentes`: sources that bring web pages into a space's documents (one page, a site crawl, a sitemap, a
 * feed, a list), through an address guard against server-side request forgery, and fichas assembled from the
 * space's passages with their provenance.
 */
export default definePlugin({
  manifest: {
    id: 'fuentes',
    version: '1.0.0',
    sdk: '^2.1.0',
    title: 'Fuentes',
    description:
      'Fuentes web que alimentan los documentos del espacio, y fichas ensambladas a partir de ellos con su procedencia.',
    needs: [
      HostServices.Database,
      HostServices.Clock,
      HostServices.Logger,
      HostServices.Config,
      HostServices.Documents,
      HostServices.Cerebro,
      HostServices.CreditRefunds,
      HostServices.Spaces,
      HostServices.Events,
      HostServices.Jobs,
    ],
    migrations: fuentesMigrations,
    postgresMigrations: fuentesPostgresMigrations,
    config: { ...FUENTES_CONFIG },
    routes: FUENTES_ROUTES,
  },
  async setup(scope) {
    const db = scope.resolve(HostServices.Database);
    const clock = scope.resolve(HostServices.Clock);
    const log = scope.resolve(HostServices.Logger);
    const documents = scope.resolve(HostServices.Documents);
    const settings = readSettings(scope.resolve(HostServices.Config));
    const cerebro = scope.resolve(HostServices.Cerebro);
    const events = scope.resolve(HostServices.Events);
    const jobs = scope.resolve(HostServices.Jobs);

    const sources = new SourceStore(db, clock);
    const runs = new RunStore(db, clock);
    const pages = new PageStore(db);
    const fetcher = new GuardedFetcher(
      settings.policy,
      {
        maxBytes: settings.maxPageBytes,
        timeoutMs: settings.requestTimeoutMs,
        maxRedirects: settings.maxRedirects,
        socketsPerHost: settings.perHostConcurrency,
      },
      settings.userAgent,
    );
    const reader = new PageReader(settings.readerThreads);
    const manager = new RunManager(
      {
        fetcher,
        reader,
        documents,
        pages,
        runs,
        userAgent: settings.userAgent,
        maxRunBytes: settings.maxRunBytes,
        maxRunMs: settings.maxRunMs,
        maxCrawlDelayMs: settings.maxCrawlDelayMs,
        limiter: new HostLimiter(settings.perHostConcurrency),
        runConcurrency: settings.runConcurrency,
        now: () => clock.now(),
        log,
      },
      sources,
      runs,
      jobs,
      log,
      { concurrentRuns: settings.concurrentRuns, resume: settings.resumeAfterCrash },
      (run) =>
        events.publish(run.spaceId, 'fuente.ejecucion_terminada', {
          fuente: run.sourceId,
          // The errors per URL stay readable through the API; the event carries the first ones.
          ejecucion: { ...runView(run), errores: run.errores.slice(0, MAX_EVENT_ERRORS) },
        }),
    );
    await manager.start();
    const schedule = new SourceSchedule(
      sources,
      jobs,
      (source, trigger) => manager.launch(source, trigger),
      clock,
      log,
    );
    await schedule.start();
    const fichas = new FichaStore(db, clock);
    const runner = new FichaRunner(
      fichas,
      new FichaAssembler({ documents, cerebro, log }),
      scope.resolve(HostServices.CreditRefunds),
      scope.resolve(HostServices.Spaces),
      jobs,
      log,
      (ficha) =>
        events.publish(ficha.spaceId, ficha.estado === 'lista' ? 'ficha.lista' : 'ficha.fallida', {
          ficha: fichaView(ficha),
        }),
    );
    await runner.start();

    return {
      handlers: {
        ...sourceHandlers({
          sources,
          runs,
          pages,
          manager,
          schedule,
          documents,
          caps: { maxPages: settings.maxPages, pauseMs: settings.pauseMs },
        }),
        ...fichaHandlers({ fichas, runner, sources, documents }),
      },
      checks: fichaChecks({ sources, documents }),
      // The host stops the plugin's jobs (runs and fichas go back to the queue) before this.
      dispose: async () => {
        fetcher.close();
        await reader.close();
      },
      status: () => ({
        ejecuciones_en_curso: manager.counts().running,
        ejecuciones_en_cola: manager.counts().waiting,
        fichas_pendientes: runner.queued,
      }),
      metrics: {
        ejecuciones_en_curso: {
          help: 'Ejecuciones de fuentes leyendo páginas ahora.',
          read: () => manager.counts().running,
        },
        ejecuciones_en_cola: {
          help: 'Ejecuciones esperando un hueco (ejecuciones_simultaneas).',
          read: () => manager.counts().waiting,
        },
        fichas_pendientes: { help: 'Fichas en cola o ensamblándose.', read: () => runner.queued },
      },
    };
  },
});

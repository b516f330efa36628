import { describeOriginals } from '../config/originals-setting.js';
import { openOriginalsStore } from '../storage/originals/open-originals-store.js';
import { InlineOriginalsStore } from '../storage/originals/inline-originals-store.js';
import { InlineOriginalRepositoryToken } from '../storage/port/inline-original-repository.js';
import 'reflect-metadata';
import { roleIndexes } from '../config/process-role.js';
import { startAuditRetention } from '../audit/audit-retention.js';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger as PinoLogger } from 'pino';
import type { Clock, PluginDefinition } from '@cerebro/sdk';
import type { AdminActions } from '../admin/admin-services.js';
import { ModuleCatalogToken } from '../admin/module-catalog.js';
import { loadHostConfig, type HostConfig } from '../config/host-config.js';
import { buildApp } from '../http/app.js';
import { buildOpenApi } from '../http/openapi.js';
import type { HostRoute } from '../http/route.js';
import type { Lifecycle } from '../kernel/kernel-services.js';
import { HostTokens } from '../kernel/tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import { DocumentJobRepositoryToken, DocumentReadsNowToken } from '../storage/port/document-job-repository.js';
import { ProcessLeaseRepositoryToken } from '../storage/port/process-lease-repository.js';
import { VectorRepositoriesToken } from '../storage/port/vector-repository.js';
import { PassageIndexRepositoryToken } from '../storage/port/passage-index-repository.js';
import { createRootLogger } from '../logging/logger.js';
import type { LogSink } from '../logging/turn-batched-destination.js';
import { discoverPlugins, markShipped, type PluginCandidate } from '../plugins/discovery.js';
import { hostServiceFactories } from '../plugins/host-service-factories.js';
import {
  disposePlugins,
  failedImportPlugin,
  importCandidates,
  loadPlugins,
  type ImportedCandidates,
  type LoadedPlugin,
} from '../plugins/plugin-loader.js';
import { installedPackagesDir, linkHostSdk } from '../plugins/install/plugin-folder.js';
import { absentModuleRoutes } from '../plugins/absent-module-routes.js';
import { pluginRoutes } from '../plugins/plugin-routes.js';
import { migratePluginDatabases } from '../plugins/plugin-migrations.js';
import { migratePgPluginSchemas } from '../plugins/pg-plugin-migrations.js';
import { createPluginStorage } from '../storage/plugin-storage.js';
import { PgPluginSchemasToken } from './pg-content-repositories.js';
import { coreRoutes } from '../routes/core-routes.js';
import { studioRoutes } from '../studio/studio-routes.js';
import { documentPassageRoutes } from '../rag/document-passage-routes.js';
import { mountStudio } from '../studio/studio-static.js';
import { cerebroHostService } from '../rag/cerebro-host-service.js';
import { documentsHostService } from '../rag/documents-host-service.js';
import { pluginCreditRefunds } from '../credits/plugin-credit-refunds.js';
import { ragRoutes } from '../rag/rag-routes.js';
import { conversationRoutes } from '../rag/conversation-routes.js';
import { openAiRoutes } from '../rag/openai-routes.js';
import { RagService } from '../rag/rag-service.js';
import { SearchModels } from '../rag/search-models.js';
import { ModelStatus } from '../rag/model-status.js';
import { modelRoutes } from '../rag/model-routes.js';
import { systemRoutes } from '../routes/system-routes.js';
import { listenForMetrics, type MetricsListener } from '../metrics/metrics-server.js';
import { metricsRoute } from '../metrics/metrics-route.js';
import { registerScrapeGauges } from '../metrics/scrape-gauges.js';
import { MetricsRepositoryToken } from '../storage/port/metrics-repository.js';
import { AnswerCacheRepositoryToken } from '../storage/port/answer-cache-repository.js';
import { ConversationRepositoryToken } from '../storage/port/conversation-repository.js';
import { RagSettingsRepositoryToken } from '../storage/port/rag-settings-repository.js';
import { DocumentLabelRepositoryToken } from '../storage/port/document-label-repository.js';
import { openDatabase } from '../storage/database.js';
import { inWriteTransaction } from '../storage/sqlite/write-transaction.js';
import { backupDatabases, type BackupResult } from '../storage/backup.js';
import { automaticBackupDir, migrateHostDatabase } from '../storage/migrate-host.js';
import { PluginDatabases } from '../storage/plugin-databases.js';
import { HOST_MIGRATIONS } from '../storage/migrations/index.js';
import { releaseProcessTempDir, removeDeadTempDirs } from '../storage/process-temp-dir.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { buildHostContainer } from './host-container.js';
import { openSharedBackend, type SharedBackend } from './shared-backend.js';
import { HOST_VERSION } from './version.js';
import { answerClientErrorsWithDetail } from './client-errors.js';
import { admitReadRequests, handleInCheckPhase } from '../http/check-phase.js';
import { guardTrickledBodies } from '../http/unread-body.js';
import { logStorageError } from '../storage/storage-failure.js';
import { DiskSpaceWatch } from '../storage/disk-space.js';
import { WebhookTokens } from '../webhooks/webhook-tokens.js';
import { webhookRoutes } from '../webhooks/webhook-routes.js';
import { creditEvents, creditRefusalEvents, documentEvents, pluginEventPublisher } from '../webhooks/host-events.js';
import { SyncSpaceReaderToken } from '../storage/port/sync-space-reader.js';
import { SqlitePluginSchemaRepository } from '../storage/sqlite/plugin-schema-repository.js';
import { DocumentOriginRepositoryToken, DocumentOriginsNowToken } from '../storage/port/document-origin-repository.js';
import { PluginJobRepositoryToken } from '../storage/port/plugin-job-repository.js';
import { PluginJobsHost } from '../plugins/jobs/plugin-jobs-host.js';

export interface HostOptions {
  /** Overrides of the configuration read from the environment. */
  config?: Partial<HostConfig>;
  env?: NodeJS.ProcessEnv;
  /** Plugins given in code, loaded besides (or, with `config.discoverPlugins: false`, instead of) discovered ones. */
  plugins?: PluginDefinition[];
  clock?: Clock;
  /** Where logs go (stdout by default). */
  logDestination?: LogSink;
}

export interface RunningHost {
  readonly url: string;
  readonly port: number;
  /** Base URL of the unauthenticated metrics listener, when `CEREBRO_METRICS_PORT` is set. */
  readonly metricsUrl: string | undefined;
  readonly config: HostConfig;
  readonly plugins: readonly LoadedPlugin[];
  readonly routes: readonly HostRoute[];
  readonly admin: AdminActions;
  readonly log: PinoLogger;
  /** The request listener, for injecting requests without a socket (light-my-request and the like). */
  readonly handler: RequestListener;
  openapi(): unknown;
  /** Writes batched counters now (tests, before reading them from the database). */
  flushCounters(): Promise<void>;
  /**
   * Runs a first-start step (the first run's owner, space and credentials) as one unit, all its writes or none: on
   * PostgreSQL once for all hosts starting together, in one transaction under their migration lock (null when a start
   * already ran it); on SQLite in one transaction holding the file's write lock (`inWriteTransaction`), so processes
   * sharing the data folder take turns and a process killed half-way leaves nothing.
   */
  firstStart<T>(name: string, step: () => Promise<T | null>): Promise<T | null>;
  /** Graceful stop: refuse new requests, wait for those in flight, dispose plugins, flush, close the database. */
  close(): Promise<void>;
}

/**
 * The checkout (or the single executable's unpacked tree) this host runs from: its `plugins/` folder holds the
 * built-in plugins. Null when the host is an installed package (`node_modules/@cerebro/host`, e.g. a plugin
 * project's testing kit), where the folder above it is `node_modules/@cerebro`, not a project.
 */
export const REPO_ROOT = ((root) => (existsSync(join(root, 'package.json')) ? root : null))(
  fileURLToPath(new URL('../../../', import.meta.url)),
);

/**
 * Workspace and installed plugins, found from the repository, the working directory and the packages
 * `cerebro plugins add` installed in the data directory. The CLI uses it too, to know which module ids exist
 * without starting the server. Packages whose import fails come back in `failed`.
 */
export async function discoveredSources(config: HostConfig): Promise<ImportedCandidates> {
  if (!config.discoverPlugins) return { sources: [], failed: [] };
  return importCandidates(discoveredCandidates(config), config.pluginsAllow, config.pluginsDeny);
}

/** The plugin packages `discoveredSources` would import, found without importing any. */
export function discoveredCandidates(config: HostConfig): PluginCandidate[] {
  const roots = [...new Set([...(REPO_ROOT ? [REPO_ROOT] : []), process.cwd()].map((r) => resolve(r)))];
  // Installed packages resolve the sdk of the host that runs now, even after the host moved or was upgraded.
  // A link that cannot be written (read-only data directory) is not fatal: those plugins then fail their import.
  if (existsSync(installedPackagesDir(config.dataDir)))
    try {
      linkHostSdk(config.dataDir);
    } catch {
      /* reported per plugin */
    }
  return markShipped(
    discoverPlugins(
      [...roots.map((r) => join(r, 'plugins')), ...config.pluginPaths],
      [...roots.map((r) => join(r, 'node_modules')), installedPackagesDir(config.dataDir)].filter((p) => existsSync(p)),
    ),
    REPO_ROOT && join(REPO_ROOT, 'plugins'),
  );
}

/** Boots the whole service: storage, migrations, plugins, HTTP. Rejects (and releases everything) on a fatal error. */
export async function startHost(options: HostOptions = {}): Promise<RunningHost> {
  const env = options.env ?? process.env;
  const config: HostConfig = { ...loadHostConfig(env), ...options.config };
  const log = createRootLogger(config.logLevel, options.logDestination, config.logFormat);
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  mkdirSync(config.dataDir, { recursive: true });
  const staleTemp = removeDeadTempDirs(config.dataDir);
  if (staleTemp.length) log.info({ carpetas: staleTemp.length }, 'temporales de procesos terminados eliminados');
  // On PostgreSQL no SQLite file is opened: every repository is the server's (a leftover SQLite one fails, named).
  const db = config.databaseUrl ? null : openDatabase(join(config.dataDir, 'cerebro.db'));
  const pluginDbs = new PluginDatabases(config.dataDir);
  let server: Server | undefined;
  let metricsListener: MetricsListener | undefined;
  let plugins: LoadedPlugin[] = [];
  let rag: RagService | undefined;
  let pluginJobs: PluginJobsHost | undefined;
  let shared: SharedBackend | null = null;
  let closePluginSchemas = (): Promise<void> => Promise.resolve();
  try {
    if (config.databaseUrl) shared = await openSharedBackend(config, log);
    // One automatic backup per start at most: the host's, if it took one, was made before any plugin migrates.
    let backup: BackupResult | undefined;
    if (db) {
      const migration = await migrateHostDatabase(db, config.dataDir, { owner: 'host', migrations: HOST_MIGRATIONS });
      if (migration.backup)
        log.info(
          { carpeta: migration.backup.carpeta, migraciones: migration.applied },
          'respaldo automático antes de migrar',
        );
      backup = migration.backup;
      for (const id of migration.applied) log.info({ migracion: id }, 'migración del host aplicada');
    }
    const backupBeforeMigrating = async () =>
      (backup ??= await backupDatabases(config.dataDir, automaticBackupDir(config.dataDir, new Date(clock.now()))));
    const container = buildHostContainer(config, log, db, clock, shared);
    const lifecycle = resolveToken(container, HostTokens.Lifecycle);
    const usage = resolveToken(container, HostTokens.Usage);
    const admin = resolveToken(container, HostRootTokens.Admin);
    const metrics = resolveToken(container, HostTokens.Metrics);
    const webhooks = resolveToken(container, WebhookTokens.Service);
    const dispatcher = resolveToken(container, WebhookTokens.Dispatcher);
    webhooks.onStored(() => dispatcher.wake());
    resolveToken(container, HostTokens.Credits).onDebit(creditEvents(webhooks, log));
    resolveToken(container, HostTokens.Credits).onRefused(creditRefusalEvents(webhooks, log));
    const chat = config.llmUrl
      ? { baseUrl: config.llmUrl, model: config.llmModel, apiKey: config.llmApiKey || undefined }
      : null;
    const models = await SearchModels.load(config, log);
    // SQLite's passage index runs questions' full-text matches on its own search threads; PostgreSQL's in the server.
    const passages = resolveToken(container, PassageIndexRepositoryToken);
    const searchKind = await passages.searchKind();
    // Small originals read whole (a module's web pages) go to the database, the rest to the configured store.
    const originals = new InlineOriginalsStore(
      await openOriginalsStore(config.originals, config.dataDir),
      resolveToken(container, InlineOriginalRepositoryToken),
    );
    if (originals.kind !== 'carpeta_de_datos')
      log.info({ archivos: describeOriginals(config.originals) }, 'originales fuera de la carpeta de datos');
    rag = await RagService.create({
      db: db ?? undefined,
      repositories: {
        answers: resolveToken(container, AnswerCacheRepositoryToken),
        settings: resolveToken(container, RagSettingsRepositoryToken),
        conversations: resolveToken(container, ConversationRepositoryToken),
        labels: resolveToken(container, DocumentLabelRepositoryToken),
        origins: resolveToken(container, DocumentOriginRepositoryToken),
        originsNow: resolveToken(container, DocumentOriginsNowToken),
        documentsNow: resolveToken(container, DocumentReadsNowToken),
      },
      engineStorage: {
        documents: resolveToken(container, DocumentJobRepositoryToken),
        leases: resolveToken(container, ProcessLeaseRepositoryToken),
        vectors: resolveToken(container, VectorRepositoriesToken),
        passages,
      },
      dataDir: config.dataDir,
      originals,
      now: () => clock.now(),
      log,
      chat,
      workerThreads: config.indexingThreads,
      jobDeadlineMs: config.indexingDeadlineMs,
      models,
      metrics,
      onDocumentState: documentEvents(webhooks, log),
    });
    await rag.start(roleIndexes(config.role));
    const liveRagService = rag;

    // Plugins' jobs run where documents are indexed (todo and worker), never in an api process.
    const liveJobs = new PluginJobsHost(
      resolveToken(container, PluginJobRepositoryToken),
      { runsJobs: roleIndexes(config.role), clock },
      log,
    );
    pluginJobs = liveJobs;
    const explicit = (options.plugins ?? []).map((definition) => ({ definition, origin: 'en código' }));
    const discovered = await discoveredSources(config);
    for (const failure of discovered.failed) {
      log.error(
        { plugin: failure.id, code: failure.error.code, err: failure.error.message },
        'plugin desactivado: no se pudo importar',
      );
    }
    // Each plugin's database: its own file on SQLite, its own schema and role on PostgreSQL.
    const pgSchemas = shared ? resolveToken(container, PgPluginSchemasToken) : null;
    closePluginSchemas = () => pgSchemas?.closeAll() ?? Promise.resolve();
    plugins = await loadPlugins([...discovered.sources, ...explicit], {
      migrate: db
        ? (manifests) =>
            migratePluginDatabases(manifests, {
              schemas: new SqlitePluginSchemaRepository(db, pluginDbs),
              log,
              backupBeforeMigrating,
            })
        : (manifests) => migratePgPluginSchemas(manifests, resolveToken(container, PgPluginSchemasToken), log),
      log,
      initTimeoutMs: config.pluginInitTimeoutMs,
      hostServices: hostServiceFactories({
        config,
        env,
        rootLogger: log,
        database: (pluginId) => (pgSchemas ? pgSchemas.opened(pluginId) : pluginDbs.database(pluginId)),
        storage: pgSchemas ? null : (pluginId) => createPluginStorage(pluginDbs.of(pluginId), pluginId),
        clock,
        uploads: resolveToken(container, HostTokens.Uploads),
        spaces: resolveToken(container, HostTokens.Directory),
        // On PostgreSQL nothing is read synchronously: the sdk's deprecated synchronous reads throw, naming their
        // asynchronous replacement.
        spacesNow: shared ? null : resolveToken(container, SyncSpaceReaderToken),
        cerebro: cerebroHostService(rag, chat, resolveToken(container, HostTokens.QuestionGate)),
        documents: (pluginId) =>
          documentsHostService(liveRagService, pluginId, async (space, delta) => {
            const account = (await resolveToken(container, HostTokens.Directory).space(space))?.row.account_id;
            return account ? resolveToken(container, HostTokens.Quotas).hold(account, delta) : null;
          }),
        creditRefunds: (pluginId) =>
          pluginCreditRefunds(
            resolveToken(container, HostTokens.Credits),
            resolveToken(container, HostTokens.Directory),
            pluginId,
          ),
        events: (pluginId) => pluginEventPublisher(webhooks, pluginId, log),
        jobs: (pluginId) => liveJobs.of(pluginId),
      }),
    });

    plugins.push(...discovered.failed.map(failedImportPlugin));
    resolveToken(container, ModuleCatalogToken).declare(plugins.map((p) => p.manifest.id));
    warnUnknownAllowed(config, plugins, log);
    const disk = new DiskSpaceWatch(config.dataDir, config.diskMinFreeBytes);
    registerScrapeGauges(metrics.registry, {
      counts: resolveToken(container, MetricsRepositoryToken),
      dataDir: config.dataDir,
      lifecycle,
      plugins,
      log,
      disk,
      sqliteFiles: shared === null,
    });

    // Built at its first request, not at start (~4 ms of each start): routes and manifests no longer change by then.
    let openapiDocument: unknown;
    const openapi = () =>
      (openapiDocument ??= buildOpenApi(routes, {
        version: HOST_VERSION,
        plugins: plugins.map((p) => ({
          id: p.manifest.id,
          title: p.manifest.title,
          version: p.manifest.version,
          description: p.manifest.description,
          errors: p.manifest.errors,
        })),
      }));
    const routes: HostRoute[] = [
      ...systemRoutes({
        version: HOST_VERSION,
        role: config.role,
        lifecycle,
        plugins: () => plugins,
        openapi,
        cerebro: () => ({
          ...models.health(),
          indice_pasajes: searchKind.index,
          busqueda_vectores: searchKind.vectors,
          archivos: originals.kind,
          motor: chat ? 'generativo' : 'extractivo',
        }),
        authenticator: resolveToken(container, HostTokens.Authenticator),
        disk: () => disk.read(),
      }),
      metricsRoute(metrics),
      ...coreRoutes(container),
      ...studioRoutes(container),
      ...ragRoutes(container, rag),
      ...documentPassageRoutes(rag),
      ...modelRoutes(new ModelStatus(config, models, () => clock.now())),
      ...conversationRoutes(rag.conversationLog),
      ...openAiRoutes(container, rag),
      ...webhookRoutes(webhooks),
      ...plugins.flatMap(pluginRoutes),
    ];
    // Last, and outside the OpenAPI document: they only answer paths no plugin route took.
    const app = buildApp(
      [...routes, ...absentModuleRoutes(() => plugins)],
      resolveToken(container, HostRootTokens.Pipeline),
      log,
    );
    mountStudio(app, { config, log });
    const handler = app.handler as unknown as RequestListener;
    server = await listen(handler, config);
    if (config.metricsPort !== null)
      metricsListener = await listenForMetrics(metrics, config.metricsHost, config.metricsPort, log);
    const port = (server.address() as AddressInfo).port;
    // A flush that fails (full disk, busy database) keeps its counts for the next one; it must not end the process.
    const flushTimer = setInterval(() => {
      usage.flush().catch((err: unknown) => {
        logStorageError(log, err, 'no se pudieron guardar los contadores de llamadas; se reintenta');
      });
    }, config.counterFlushMs);
    flushTimer.unref();
    dispatcher.start();
    // Processes that purge (not `api` ones) also forget audit events past their retention.
    const stopAuditRetention = roleIndexes(config.role)
      ? startAuditRetention(resolveToken(container, HostTokens.Audit), log)
      : () => {};
    lifecycle.markReady();
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    log.info(
      { url, plugins: plugins.map((p) => `${p.manifest.id}@${p.manifest.version}:${p.state}`) },
      'Cerebro escuchando',
    );

    const liveServer = server;
    const liveMetrics = metricsListener;
    const liveRag = rag;
    const liveShared = shared;
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      config,
      plugins,
      routes,
      admin,
      log,
      handler,
      metricsUrl: liveMetrics?.url,
      openapi,
      flushCounters: () => usage.flush(),
      firstStart: (name, step) =>
        liveShared ? liveShared.once(name, step) : db ? inWriteTransaction(db, step) : step(),
      close: () =>
        (closing ??= shutdown(liveServer, lifecycle, config, () => {
          clearInterval(flushTimer);
          stopAuditRetention();
          return (liveMetrics?.close() ?? Promise.resolve())
            .then(() => liveJobs.stopAll())
            .then(() => disposePlugins(plugins, log))
            .then(async () => {
              await dispatcher.stop();
              await liveRag.stop();
              await usage.flush();
              pluginDbs.closeAll();
              await closePluginSchemas();
              db?.close();
              await shared?.close();
              await releaseProcessTempDir(config.dataDir);
              log.info('Cerebro detenido');
              log.flush();
            });
        })),
    };
  } catch (err) {
    server?.close();
    await metricsListener?.close();
    await pluginJobs?.stopAll();
    await disposePlugins(plugins, log);
    await rag?.stop();
    pluginDbs.closeAll();
    await closePluginSchemas().catch(() => undefined);
    if (db?.open) db.close();
    await shared?.close().catch(() => undefined);
    throw err;
  }
}

/** A misspelt id in `CEREBRO_PLUGINS_ALLOW` silently loads nothing: say which names matched no plugin. */
function warnUnknownAllowed(config: HostConfig, plugins: readonly LoadedPlugin[], log: PinoLogger): void {
  const loaded = new Set(plugins.map((p) => p.manifest.id));
  const unknown = config.pluginsAllow.filter((id) => !loaded.has(id) && !config.pluginsDeny.includes(id));
  if (unknown.length)
    log.warn(
      { desconocidos: unknown, cargados: [...loaded] },
      'CEREBRO_PLUGINS_ALLOW nombra plugins que no se encontraron',
    );
}

async function listen(handler: RequestListener, config: HostConfig): Promise<Server> {
  // Node checks the timeouts below on an interval (30 s by default), so a request's headers could take up to twice
  // their timeout: a shorter timeout is checked at least twice as often.
  const server = createServer(
    { connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.headersTimeoutMs / 2)) },
    guardTrickledBodies(handleInCheckPhase(handler)),
  );
  answerClientErrorsWithDetail(server);
  // Bodies of slow clients must not hold a connection forever; headers likewise.
  server.requestTimeout = 5 * 60_000;
  server.headersTimeout = config.headersTimeoutMs;
  server.keepAliveTimeout = config.keepAliveMs;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(config.port, config.host, () => {
      server.off('error', fail);
      ok();
    });
  });
  return server;
}

async function shutdown(
  server: Server,
  lifecycle: Lifecycle,
  config: HostConfig,
  release: () => Promise<void>,
): Promise<void> {
  const started = Date.now();
  const closed = new Promise<void>((ok) => server.close(() => ok()));
  server.closeIdleConnections();
  // Requests already read wait for the check phase (handleInCheckPhase): they enter the pipeline before it closes.
  await admitReadRequests();
  const drained = await lifecycle.drain(config.shutdownGraceMs);
  if (!drained) server.closeAllConnections();
  server.closeIdleConnections();
  // A connection that is neither idle nor in the pipeline (a browser's preconnected socket that never sent a
  // request, as Studio's Chromium opens; a file still streaming) gets what is left of the grace period, then is
  // closed: a stop never waits on a client.
  const straggler = setTimeout(
    () => server.closeAllConnections(),
    Math.max(0, config.shutdownGraceMs - (Date.now() - started)),
  );
  await closed;
  clearTimeout(straggler);
  await release();
  lifecycle.markStopped();
}

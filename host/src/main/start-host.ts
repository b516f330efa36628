import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger as PinoLogger } from 'pino';
import type { Clock, PluginDefinition } from '@cerebro/sdk';
import type { AdminService } from '../admin/admin-service.js';
import { ModuleCatalogToken } from '../admin/module-catalog.js';
import { loadHostConfig, type HostConfig } from '../config/host-config.js';
import { buildApp } from '../http/app.js';
import { buildOpenApi } from '../http/openapi.js';
import type { HostRoute } from '../http/route.js';
import type { Lifecycle } from '../kernel/lifecycle.js';
import { HostTokens } from '../kernel/tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import { createRootLogger } from '../logging/logger.js';
import type { LineSink } from '../logging/turn-batched-destination.js';
import { discoverPlugins } from '../plugins/discovery.js';
import { hostServiceFactories } from '../plugins/host-service-factories.js';
import { disposePlugins, importCandidates, loadPlugins, type LoadedPlugin, type PluginSource } from '../plugins/plugin-loader.js';
import { pluginRoutes } from '../plugins/plugin-routes.js';
import { coreRoutes } from '../routes/core-routes.js';
import { cerebroHostService } from '../rag/cerebro-host-service.js';
import { ragRoutes } from '../rag/rag-routes.js';
import { RagService } from '../rag/rag-service.js';
import { SearchModels } from '../rag/search-models.js';
import { systemRoutes } from '../routes/system-routes.js';
import { openDatabase } from '../storage/database.js';
import { migrateHostDatabase } from '../storage/migrate-host.js';
import { PluginDatabases } from '../storage/plugin-databases.js';
import { HOST_MIGRATIONS } from '../storage/migrations/index.js';
import { releaseProcessTempDir, removeDeadTempDirs } from '../storage/process-temp-dir.js';
import { HostRootTokens, buildHostContainer } from './host-container.js';
import { HOST_VERSION } from './version.js';
import { answerClientErrorsWithDetail } from './client-errors.js';

export interface HostOptions {
  /** Overrides of the configuration read from the environment. */
  config?: Partial<HostConfig>;
  env?: NodeJS.ProcessEnv;
  /** Plugins given in code, loaded besides (or, with `config.discoverPlugins: false`, instead of) discovered ones. */
  plugins?: PluginDefinition[];
  clock?: Clock;
  /** Where logs go (stdout by default). */
  logDestination?: LineSink;
}

export interface RunningHost {
  readonly url: string;
  readonly port: number;
  readonly config: HostConfig;
  readonly plugins: readonly LoadedPlugin[];
  readonly routes: readonly HostRoute[];
  readonly admin: AdminService;
  readonly log: PinoLogger;
  /** The request listener, for injecting requests without a socket (light-my-request and the like). */
  readonly handler: RequestListener;
  openapi(): unknown;
  /** Writes batched counters now (tests, before reading them from the database). */
  flushCounters(): void;
  /** Graceful stop: refuse new requests, wait for those in flight, dispose plugins, flush, close the database. */
  close(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Workspace and installed plugins, found from the repository and from the working directory. The CLI uses it too,
 * to know which module ids exist without starting the server.
 */
export async function discoveredSources(config: HostConfig): Promise<PluginSource[]> {
  if (!config.discoverPlugins) return [];
  const roots = [...new Set([REPO_ROOT, process.cwd()].map((r) => resolve(r)))];
  const candidates = discoverPlugins(
    [...roots.map((r) => join(r, 'plugins')), ...config.pluginPaths],
    roots.map((r) => join(r, 'node_modules')).filter((p) => existsSync(p)),
  );
  return importCandidates(candidates, config.pluginsAllow, config.pluginsDeny);
}

/** Boots the whole service: storage, migrations, plugins, HTTP. Rejects (and releases everything) on a fatal error. */
export async function startHost(options: HostOptions = {}): Promise<RunningHost> {
  const env = options.env ?? process.env;
  const config: HostConfig = { ...loadHostConfig(env), ...options.config };
  const log = createRootLogger(config.logLevel, options.logDestination);
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  mkdirSync(config.dataDir, { recursive: true });
  const staleTemp = removeDeadTempDirs(config.dataDir);
  if (staleTemp.length) log.info({ carpetas: staleTemp.length }, 'temporales de procesos terminados eliminados');
  const db = openDatabase(join(config.dataDir, 'cerebro.db'));
  const pluginDbs = new PluginDatabases(config.dataDir);
  let server: Server | undefined;
  let plugins: LoadedPlugin[] = [];
  let rag: RagService | undefined;
  try {
    const migration = await migrateHostDatabase(db, config.dataDir, { owner: 'host', migrations: HOST_MIGRATIONS });
    if (migration.backup) log.info({ carpeta: migration.backup.carpeta, migraciones: migration.applied }, 'respaldo automático antes de migrar');
    const container = buildHostContainer(config, log, db, clock);
    const lifecycle = resolveToken(container, HostTokens.Lifecycle);
    const usage = resolveToken(container, HostTokens.Usage);
    const admin = resolveToken(container, HostRootTokens.Admin);
    const chat = config.llmUrl ? { baseUrl: config.llmUrl, model: config.llmModel, apiKey: config.llmApiKey || undefined } : null;
    const models = await SearchModels.load(config, log);
    rag = await RagService.create({
      db, dataDir: config.dataDir, now: () => clock.now(), log, chat,
      workerThreads: config.indexingThreads,
      jobDeadlineMs: config.indexingDeadlineMs,
      models,
    });
    rag.start();

    const explicit = (options.plugins ?? []).map((definition) => ({ definition, origin: 'en código' }));
    plugins = await loadPlugins([...(await discoveredSources(config)), ...explicit], {
      hostDb: db,
      pluginDbs,
      log,
      initTimeoutMs: config.pluginInitTimeoutMs,
      hostServices: hostServiceFactories({
        config, env, rootLogger: log, pluginDbs, clock,
        uploads: resolveToken(container, HostTokens.Uploads),
        directory: resolveToken(container, HostTokens.Directory),
        cerebro: cerebroHostService(rag, chat),
      }),
    });

    resolveToken(container, ModuleCatalogToken).declare(plugins.map((p) => p.manifest.id));

    let openapiDocument: unknown;
    const routes: HostRoute[] = [
      ...systemRoutes({
        version: HOST_VERSION, lifecycle, plugins: () => plugins, openapi: () => openapiDocument,
        cerebro: () => ({ ...models.health(), motor: chat ? 'generativo' : 'extractivo' }),
        authenticator: resolveToken(container, HostTokens.Authenticator),
      }),
      ...coreRoutes(container),
      ...ragRoutes(container, rag),
      ...plugins.flatMap(pluginRoutes),
    ];
    openapiDocument = buildOpenApi(routes, {
      version: HOST_VERSION,
      plugins: plugins.map((p) => ({ id: p.manifest.id, title: p.manifest.title, version: p.manifest.version, description: p.manifest.description })),
    });

    const app = buildApp(routes, resolveToken(container, HostRootTokens.Pipeline), log);
    const handler = app.handler as unknown as RequestListener;
    server = await listen(handler, config);
    const port = (server.address() as AddressInfo).port;
    const flushTimer = setInterval(() => usage.flush(), config.counterFlushMs);
    flushTimer.unref();
    lifecycle.markReady();
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    log.info({ url, plugins: plugins.map((p) => `${p.manifest.id}@${p.manifest.version}:${p.state}`) }, 'Cerebro escuchando');

    const liveServer = server;
    const liveRag = rag;
    let closing: Promise<void> | undefined;
    return {
      url, port, config, plugins, routes, admin, log, handler,
      openapi: () => openapiDocument,
      flushCounters: () => usage.flush(),
      close: () => (closing ??= shutdown(liveServer, lifecycle, config, () => {
        clearInterval(flushTimer);
        return disposePlugins(plugins, log).then(async () => {
          await liveRag.stop();
          usage.flush();
          pluginDbs.closeAll();
          db.close();
          await releaseProcessTempDir(config.dataDir);
          log.info('Cerebro detenido');
          log.flush();
        });
      })),
    };
  } catch (err) {
    server?.close();
    await disposePlugins(plugins, log);
    await rag?.stop();
    pluginDbs.closeAll();
    if (db.open) db.close();
    throw err;
  }
}

async function listen(handler: RequestListener, config: HostConfig): Promise<Server> {
  const server = createServer(handler);
  answerClientErrorsWithDetail(server);
  // Bodies of slow clients must not hold a connection forever; headers likewise.
  server.requestTimeout = 5 * 60_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(config.port, config.host, () => { server.off('error', fail); ok(); });
  });
  return server;
}

async function shutdown(server: Server, lifecycle: Lifecycle, config: HostConfig, release: () => Promise<void>): Promise<void> {
  const closed = new Promise<void>((ok) => server.close(() => ok()));
  server.closeIdleConnections();
  const drained = await lifecycle.drain(config.shutdownGraceMs);
  if (!drained) server.closeAllConnections();
  server.closeIdleConnections();
  await closed;
  await release();
  lifecycle.markStopped();
}

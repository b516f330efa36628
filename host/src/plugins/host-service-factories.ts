import type { Logger as PinoLogger } from 'pino';
import {
  HostServices,
  type CerebroService,
  type Clock,
  type CreditRefunds,
  type DocumentsService,
  type EventPublisher,
  type JobsService,
  type Logger,
  type PluginDatabase,
  type PluginManifest,
  type PluginStorage,
  type SpaceDirectory,
  type SpaceInfo,
  type UploadReceiver,
} from '@cerebro/sdk';
import type { SyncSpaceReader } from '../storage/port/sync-space-reader.js';
import type { AccessDirectory } from '../access/access-services.js';
import type { SpaceRecord } from '../access/records.js';
import type { HostConfig } from '../config/host-config.js';
import { EnvPluginConfig } from './plugin-config.js';
import { SyncReadUnavailable, withoutSyncDocumentReads } from './sync-reads.js';

export interface HostServiceDeps {
  config: HostConfig;
  env: NodeJS.ProcessEnv;
  rootLogger: PinoLogger;
  /** The plugin's `HostServices.Database`: its own file on SQLite, its own schema and role on PostgreSQL. */
  database: (pluginId: string) => PluginDatabase;
  /**
   * The deprecated `HostServices.Storage` (better-sqlite3 on the plugin's file). Null on PostgreSQL, where a plugin
   * needing it is refused before its setup (pg-plugin-migrations.ts).
   */
  storage: ((pluginId: string) => PluginStorage) | null;
  clock: Clock;
  uploads: UploadReceiver;
  /** The spaces plugins look up (memoised by the access directory). */
  spaces: Pick<AccessDirectory, 'space'>;
  /**
   * Only for the sdk's deprecated synchronous reads (`SpaceDirectory.get`/`hasModule`, `DocumentsService.get`/
   * `listOwn`), served on SQLite. Null on PostgreSQL: they throw, naming their asynchronous replacement.
   */
  spacesNow: SyncSpaceReader | null;
  cerebro: CerebroService;
  /** The documents service of one plugin (origins record the plugin's id). */
  documents: (pluginId: string) => DocumentsService;
  /** Refunds of one plugin's paid requests. */
  creditRefunds: (pluginId: string) => CreditRefunds;
  /** The event publisher of one plugin (only its own module's webhook events). */
  events: (pluginId: string) => EventPublisher;
  /** The durable jobs of one plugin. */
  jobs: (pluginId: string) => JobsService;
}

/** How each host service is built for one plugin: everything plugin-scoped is derived from the plugin id. */
export function hostServiceFactories(deps: HostServiceDeps): Map<symbol, (manifest: PluginManifest) => unknown> {
  const syncSpaces = (method: string, replacement: string): SyncSpaceReader => {
    if (!deps.spacesNow) throw new SyncReadUnavailable(method, replacement);
    return deps.spacesNow;
  };
  const info = (record: Pick<SpaceRecord, 'row' | 'modules'> | undefined): SpaceInfo | undefined =>
    record && { id: record.row.id, accountId: record.row.account_id, modules: record.modules };
  const spaces: SpaceDirectory = {
    find: async (id) => info(await deps.spaces.space(id)),
    moduleEnabled: async (id, module) => (await deps.spaces.space(id))?.modules.includes(module) ?? false,
    get: (id) => info(syncSpaces('SpaceDirectory.get', 'await spaces.find(espacio)').spaceNow(id)),
    hasModule: (id, module) =>
      syncSpaces('SpaceDirectory.hasModule', 'await spaces.moduleEnabled(espacio, modulo)')
        .spaceNow(id)
        ?.modules.includes(module) ?? false,
  };
  const { storage } = deps;
  return new Map<symbol, (manifest: PluginManifest) => unknown>([
    [HostServices.Logger, (m) => deps.rootLogger.child({ plugin: m.id }) as unknown as Logger],
    [HostServices.Database, (m) => deps.database(m.id)],
    [
      HostServices.Storage,
      (m) => {
        if (!storage) throw new Error(`HostServices.Storage solo existe sobre SQLite (plugin "${m.id}").`);
        return storage(m.id);
      },
    ],
    [HostServices.Config, (m) => new EnvPluginConfig(m.id, m.config ?? {}, deps.env, deps.config.dataDir)],
    [HostServices.Clock, () => deps.clock],
    [HostServices.Uploads, () => deps.uploads],
    [HostServices.Spaces, () => spaces],
    [HostServices.Cerebro, () => deps.cerebro],
    [
      HostServices.Documents,
      (m) => (deps.spacesNow ? deps.documents(m.id) : withoutSyncDocumentReads(deps.documents(m.id))),
    ],
    [HostServices.CreditRefunds, (m) => deps.creditRefunds(m.id)],
    [HostServices.Events, (m) => deps.events(m.id)],
    [HostServices.Jobs, (m) => deps.jobs(m.id)],
  ]);
}

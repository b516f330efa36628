import type { Logger as PinoLogger } from 'pino';
import { HostServices, type CerebroService, type Clock, type CreditRefunds, type Logger, type PluginManifest, type SpaceDirectory, type UploadReceiver } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/directory.js';
import type { HostConfig } from '../config/host-config.js';
import type { CreditLedger } from '../credits/credit-ledger.js';
import type { PluginDatabases } from '../storage/plugin-databases.js';
import { createPluginStorage } from '../storage/plugin-storage.js';
import { EnvPluginConfig } from './plugin-config.js';

export interface HostServiceDeps {
  config: HostConfig;
  env: NodeJS.ProcessEnv;
  rootLogger: PinoLogger;
  pluginDbs: PluginDatabases;
  clock: Clock;
  uploads: UploadReceiver;
  directory: AccessDirectory;
  cerebro: CerebroService;
  credits: CreditLedger;
}

/** How each host service is built for one plugin: everything plugin-scoped is derived from the plugin id. */
export function hostServiceFactories(deps: HostServiceDeps): Map<symbol, (manifest: PluginManifest) => unknown> {
  const spaces: SpaceDirectory = {
    get: (id) => {
      const record = deps.directory.space(id);
      return record && { id: record.row.id, accountId: record.row.account_id, modules: record.modules };
    },
    hasModule: (id, module) => deps.directory.space(id)?.modules.includes(module) ?? false,
  };
  return new Map<symbol, (manifest: PluginManifest) => unknown>([
    [HostServices.Logger, (m) => deps.rootLogger.child({ plugin: m.id }) as unknown as Logger],
    [HostServices.Storage, (m) => createPluginStorage(deps.pluginDbs.of(m.id), m.id)],
    [HostServices.Config, (m) => new EnvPluginConfig(m.id, m.config ?? {}, deps.env, deps.config.dataDir)],
    [HostServices.Clock, () => deps.clock],
    [HostServices.Uploads, () => deps.uploads],
    [HostServices.Spaces, () => spaces],
    [HostServices.Cerebro, () => deps.cerebro],
    [HostServices.Credits, (m) => creditRefunds(deps, m.id)],
  ]);
}

/**
 * Refunds on behalf of one plugin: the movement names the plugin's route, like the pipeline's own refunds, and a
 * refund that cannot be recorded is logged instead of failing the plugin's background work.
 */
function creditRefunds(deps: HostServiceDeps, pluginId: string): CreditRefunds {
  const log = deps.rootLogger.child({ plugin: pluginId });
  return {
    refund: (spaceId, amount, context) => {
      if (!Number.isInteger(amount) || amount <= 0) return;
      const accountId = deps.directory.space(spaceId)?.row.account_id;
      try {
        if (!accountId) throw new Error('espacio sin cuenta');
        deps.credits.credit(accountId, amount, 'reembolso', { spaceId, route: `${pluginId}.${context.route}`, requestId: context.requestId });
      } catch (err) {
        log.error({ err, espacio: spaceId, creditos: amount, reqId: context.requestId }, 'no se pudo reembolsar un trabajo fallido o cancelado');
      }
    },
  };
}

// Each plugin's database is brought up to date before any plugin's setup runs: tables an older version kept in the
// host file are moved to the plugin's own file, then its migrations are applied. When that changes a database that
// already held data (an upgrade, not a first install), every database is backed up first, like before the host's
// own migrations, so a plugin upgrade that goes wrong can be undone by restoring the folder.
import { HostServices, type PluginManifest } from '@cerebro/sdk';
import { MigrationError } from '../storage/migrator.js';
import { tablePrefixOf } from '../storage/plugin-storage.js';
import type { PluginSchema } from '../storage/port/plugin-schema-repository.js';
import type { Logger as PinoLogger } from 'pino';
import type { BackupResult } from '../storage/backup.js';
import type { PluginSchemaRepository } from '../storage/port/plugin-schema-repository.js';
import { PluginError } from './plugin-error.js';

export interface PluginFileDeps {
  /** The plugins' files: checked and migrated before any setup runs (old tables moved out of the host's file). */
  schemas: PluginSchemaRepository;
  log: PinoLogger;
  /**
   * Backs up every database before an upgrade's plugin migrations run (at most once per start; the host's own
   * backup of this start, if it took one, already covers them). Without it, plugins migrate with no backup (tests).
   */
  backupBeforeMigrating?: () => Promise<BackupResult>;
}

interface PluginDatabasePlan {
  manifest: PluginManifest;
  schema: PluginSchema;
  /** Pending migrations on a file that already has applied ones, or old tables to move: existing data changes. */
  changesData: boolean;
}

/** Checks every plugin database (fatal on a migration error), backs up if an upgrade changes data, then migrates. */
export async function migratePluginDatabases(
  manifests: readonly PluginManifest[],
  deps: PluginFileDeps,
): Promise<void> {
  const plans: PluginDatabasePlan[] = [];
  for (const manifest of manifests) {
    const schema: PluginSchema = {
      pluginId: manifest.id,
      owner: `plugin:${manifest.id}`,
      tablePrefix: tablePrefixOf(manifest.id),
      migrations: manifest.migrations ?? [],
    };
    const legacy = await deps.schemas.holdsLegacyTables(schema);
    // A plugin without storage, migrations or old tables gets no file (no empty databases in the data directory).
    const needsFile = (manifest.needs ?? []).some(
      (need) => need === HostServices.Storage || need === HostServices.Database,
    );
    if (schema.migrations.length === 0 && !needsFile && !legacy) continue;
    const upgrade = await asPluginError(manifest, () => deps.schemas.upgradePending(schema));
    plans.push({ manifest, schema, changesData: legacy || upgrade });
  }

  const upgraded = plans.filter((p) => p.changesData).map((p) => p.manifest.id);
  if (upgraded.length && deps.backupBeforeMigrating) {
    const backup = await deps.backupBeforeMigrating();
    deps.log.info({ carpeta: backup.carpeta, plugins: upgraded }, 'respaldo automático antes de migrar plugins');
  }

  for (const { manifest, schema } of plans) {
    const change = await asPluginError(manifest, () => deps.schemas.migrate(schema));
    if (change.copied.length || change.dropped.length) {
      deps.log.info(
        { plugin: manifest.id, tablas: change.copied.length, eliminadas: change.dropped.length },
        'tablas del plugin movidas a su propia base de datos',
      );
    }
    for (const id of change.applied)
      deps.log.info({ plugin: manifest.id, migracion: id }, 'migración del plugin aplicada');
  }
}

/** A migration failure names the plugin (`PLUGIN_MIGRATION`, fatal at start). */
async function asPluginError<T>(manifest: PluginManifest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof MigrationError) throw new PluginError('PLUGIN_MIGRATION', manifest.id, err.message);
    throw err;
  }
}

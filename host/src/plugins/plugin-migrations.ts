// Each plugin's database is brought up to date before any plugin's setup runs: tables an older version kept in the
// host file are moved to the plugin's own file, then its migrations are applied. When that changes a database that
// already held data (an upgrade, not a first install), every database is backed up first, like before the host's
// own migrations, so a plugin upgrade that goes wrong can be undone by restoring the folder.
import { HostServices, type PluginManifest } from '@cerebro/sdk';
import { holdsLegacyData, moveLegacyPluginTables } from '../storage/legacy-plugin-tables.js';
import { applyMigrations, MigrationError, verifyMigrations } from '../storage/migrator.js';
import { tablePrefixOf } from '../storage/plugin-storage.js';
import type { LoaderDeps } from './plugin-loader.js';
import { PluginError } from './plugin-error.js';

interface PluginDatabasePlan {
  manifest: PluginManifest;
  owner: string;
  tablePrefix: string;
  /** Pending migrations on a file that already has applied ones, or old tables to move: existing data changes. */
  changesData: boolean;
}

/** Checks every plugin database (fatal on a migration error), backs up if an upgrade changes data, then migrates. */
export async function migratePluginDatabases(manifests: readonly PluginManifest[], deps: LoaderDeps): Promise<void> {
  const plans: PluginDatabasePlan[] = [];
  for (const manifest of manifests) {
    const owner = `plugin:${manifest.id}`;
    const tablePrefix = tablePrefixOf(manifest.id);
    const migrations = manifest.migrations ?? [];
    const legacy = holdsLegacyData(deps.hostDb, owner, tablePrefix);
    // A plugin without storage, migrations or old tables gets no file (no empty databases in the data directory).
    const needsFile = (manifest.needs ?? []).some(
      (need) => need === HostServices.Storage || need === HostServices.Database,
    );
    if (migrations.length === 0 && !needsFile && !legacy) continue;
    const changesData = asPluginError(manifest, () => {
      const db = deps.pluginDbs.of(manifest.id);
      const pending = verifyMigrations(db, { owner, migrations, tablePrefix });
      const applied = (
        db.prepare('SELECT count(*) AS n FROM cerebro_migrations WHERE owner = ?').get(owner) as { n: number }
      ).n;
      return legacy || (pending.length > 0 && applied > 0);
    });
    plans.push({ manifest, owner, tablePrefix, changesData });
  }

  const upgraded = plans.filter((p) => p.changesData).map((p) => p.manifest.id);
  if (upgraded.length && deps.backupBeforeMigrating) {
    const backup = await deps.backupBeforeMigrating();
    deps.log.info({ carpeta: backup.carpeta, plugins: upgraded }, 'respaldo automático antes de migrar plugins');
  }

  for (const { manifest, owner, tablePrefix } of plans) {
    asPluginError(manifest, () => {
      const db = deps.pluginDbs.of(manifest.id);
      const moved = moveLegacyPluginTables(db, deps.hostDb.name, owner, tablePrefix);
      if (moved.copied.length || moved.dropped.length) {
        deps.log.info(
          { plugin: manifest.id, tablas: moved.copied.length, eliminadas: moved.dropped.length },
          'tablas del plugin movidas a su propia base de datos',
        );
      }
      for (const id of applyMigrations(db, { owner, migrations: manifest.migrations ?? [], tablePrefix })) {
        deps.log.info({ plugin: manifest.id, migracion: id }, 'migración del plugin aplicada');
      }
    });
  }
}

/** A migration failure names the plugin (`PLUGIN_MIGRATION`, fatal at start). */
function asPluginError<T>(manifest: PluginManifest, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof MigrationError) throw new PluginError('PLUGIN_MIGRATION', manifest.id, err.message);
    throw err;
  }
}

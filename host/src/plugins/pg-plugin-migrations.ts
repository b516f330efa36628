// Plugins on a PostgreSQL host: each plugin's tables live in its own schema, created and altered as its own role
// (storage/postgres/pg-plugin-schemas.ts), by the PostgreSQL twins of its migrations (`postgresMigrations`). What
// cannot run there is refused before anything is changed, naming the plugin: migrations written only for SQLite,
// and the deprecated synchronous `HostServices.Storage`, which is better-sqlite3's own API.
import { HostServices, type PluginManifest } from '@cerebro/sdk';
import { MigrationError } from '../storage/migrator.js';
import { tablePrefixOf } from '../storage/plugin-storage.js';
import { applyPgMigrations } from '../storage/postgres/pg-migrator.js';
import type { PluginSchemas } from '../storage/postgres/pg-plugin-schemas.js';
import { PluginError } from './plugin-error.js';

/** Where a plugin logs what its start changed (the loader's pino logger fits). */
export interface PluginMigrationLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/** Throws, naming the first plugin that cannot run on PostgreSQL and why; changes nothing. */
export function refuseSqliteOnlyPlugins(manifests: readonly PluginManifest[]): void {
  for (const manifest of manifests) {
    if ((manifest.migrations ?? []).length > 0 && !manifest.postgresMigrations) {
      throw new PluginError(
        'PLUGIN_MIGRATION',
        manifest.id,
        'solo trae migraciones de SQLite y Cerebro usa PostgreSQL (CEREBRO_DATABASE_URL): el plugin debe declarar sus migraciones de PostgreSQL en postgresMigrations.',
      );
    }
    if ((manifest.needs ?? []).includes(HostServices.Storage)) {
      throw new PluginError(
        'PLUGIN_MIGRATION',
        manifest.id,
        'usa HostServices.Storage, que solo existe sobre SQLite, y Cerebro usa PostgreSQL (CEREBRO_DATABASE_URL): el plugin debe pasar a HostServices.Database.',
      );
    }
  }
}

/**
 * Checks every plugin first (fatal), then gives each plugin with migrations or a database its schema and role and
 * applies its pending PostgreSQL migrations there, as its role, under the hosts' migration lock.
 */
export async function migratePgPluginSchemas(
  manifests: readonly PluginManifest[],
  schemas: Pick<PluginSchemas, 'pool'>,
  log: PluginMigrationLog,
): Promise<void> {
  refuseSqliteOnlyPlugins(manifests);
  for (const manifest of manifests) {
    const migrations = manifest.postgresMigrations ?? [];
    if (migrations.length === 0 && !(manifest.needs ?? []).includes(HostServices.Database)) continue;
    const owner = `plugin:${manifest.id}`;
    try {
      const pool = await schemas.pool(manifest.id);
      const applied = await applyPgMigrations(pool, [{ owner, migrations, tablePrefix: tablePrefixOf(manifest.id) }]);
      for (const id of applied[owner] ?? []) {
        log.info({ plugin: manifest.id, migracion: id }, 'migración del plugin aplicada');
      }
    } catch (err) {
      if (err instanceof MigrationError) throw new PluginError('PLUGIN_MIGRATION', manifest.id, err.message);
      throw err;
    }
  }
}

import type { Migration, PluginDatabase } from '@cerebro/sdk';
import { openDatabase } from './database.js';
import { applyMigrations } from './migrator.js';
import { tablePrefixOf } from './plugin-storage.js';
import { SqlitePluginDatabase } from './sqlite/plugin-database.js';

/**
 * A plugin's database file opened on its own, migrated as the host would migrate it, for the sdk's testing kit:
 * a plugin's stores tested without a running host, and several handles on one file acting as several processes.
 */
export function openPluginDatabase(
  file: string,
  pluginId: string,
  migrations: readonly Migration[] = [],
): { db: PluginDatabase; close(): void } {
  const sqlite = openDatabase(file);
  try {
    const tablePrefix = tablePrefixOf(pluginId);
    applyMigrations(sqlite, { owner: `plugin:${pluginId}`, migrations, tablePrefix });
    return { db: new SqlitePluginDatabase(sqlite, tablePrefix), close: () => sqlite.close() };
  } catch (err) {
    sqlite.close();
    throw err;
  }
}

import { join } from 'node:path';
import type { PluginDatabase } from '@cerebro/sdk';
import { openDatabase, type SqliteDatabase } from './database.js';
import { tablePrefixOf } from './plugin-storage.js';
import { SqlitePluginDatabase } from './sqlite/plugin-database.js';

/** Where a plugin's database lives: one file per plugin, beside its data folder `<data>/plugins/<id>/`. */
export const pluginDatabaseFile = (dataDir: string, pluginId: string): string =>
  join(dataDir, 'plugins', `${pluginId}.db`);

/**
 * The plugins' database files, each opened once with the host's pragmas and closed together at shutdown.
 * A plugin's storage handle reaches only its own file, so no statement of a plugin can touch host tables.
 */
export class PluginDatabases {
  private readonly open = new Map<string, SqliteDatabase>();
  /** One async handle per file: it orders the transactions of its one connection, so there must be only one. */
  private readonly handles = new Map<string, PluginDatabase>();

  constructor(private readonly dataDir: string) {}

  of(pluginId: string): SqliteDatabase {
    let db = this.open.get(pluginId);
    if (!db) {
      db = openDatabase(pluginDatabaseFile(this.dataDir, pluginId));
      this.open.set(pluginId, db);
    }
    return db;
  }

  /** The plugin's `HostServices.Database`: the async, backend-neutral handle on its file. */
  database(pluginId: string): PluginDatabase {
    let handle = this.handles.get(pluginId);
    if (!handle) {
      handle = new SqlitePluginDatabase(this.of(pluginId), tablePrefixOf(pluginId));
      this.handles.set(pluginId, handle);
    }
    return handle;
  }

  /** Closes every file; safe to call twice. */
  closeAll(): void {
    for (const db of this.open.values()) if (db.open) db.close();
    this.open.clear();
    this.handles.clear();
  }
}

import { join } from 'node:path';
import { openDatabase, type SqliteDatabase } from './database.js';

/** Where a plugin's database lives: one file per plugin, beside its data folder `<data>/plugins/<id>/`. */
export const pluginDatabaseFile = (dataDir: string, pluginId: string): string =>
  join(dataDir, 'plugins', `${pluginId}.db`);

/**
 * The plugins' database files, each opened once with the host's pragmas and closed together at shutdown.
 * A plugin's storage handle reaches only its own file, so no statement of a plugin can touch host tables.
 */
export class PluginDatabases {
  private readonly open = new Map<string, SqliteDatabase>();

  constructor(private readonly dataDir: string) {}

  of(pluginId: string): SqliteDatabase {
    let db = this.open.get(pluginId);
    if (!db) {
      db = openDatabase(pluginDatabaseFile(this.dataDir, pluginId));
      this.open.set(pluginId, db);
    }
    return db;
  }

  /** Closes every file; safe to call twice. */
  closeAll(): void {
    for (const db of this.open.values()) if (db.open) db.close();
    this.open.clear();
  }
}

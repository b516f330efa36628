import type { PluginStorage, SqlStatement } from '@cerebro/sdk';
import type { SqliteDatabase } from './database.js';

/** Table prefix of a plugin: its id with dashes as underscores, then `_`. */
export const tablePrefixOf = (pluginId: string): string => `${pluginId.replace(/-/g, '_')}_`;

/** The plugin's handle on its own database file (never the host's: host data is reached through sdk services). */
export function createPluginStorage(db: SqliteDatabase, pluginId: string): PluginStorage {
  return {
    tablePrefix: tablePrefixOf(pluginId),
    prepare: <Row>(sql: string) => db.prepare(sql) as unknown as SqlStatement<Row>,
    exec: (sql: string) => void db.exec(sql),
    transaction: (fn) => db.transaction(fn),
  };
}

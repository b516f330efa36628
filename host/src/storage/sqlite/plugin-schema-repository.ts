import { holdsLegacyData, moveLegacyPluginTables } from '../legacy-plugin-tables.js';
import type { SqliteDatabase } from '../database.js';
import { applyMigrations, verifyMigrations } from '../migrator.js';
import type { PluginDatabases } from '../plugin-databases.js';
import type { PluginSchema, PluginSchemaChange, PluginSchemaRepository } from '../port/plugin-schema-repository.js';

/** Each plugin's schema in its own SQLite file; old tables are moved out of the host's file (`cerebro.db`). */
export class SqlitePluginSchemaRepository implements PluginSchemaRepository {
  constructor(
    private readonly hostDb: SqliteDatabase,
    private readonly pluginDbs: PluginDatabases,
  ) {}

  async holdsLegacyTables(schema: PluginSchema): Promise<boolean> {
    return holdsLegacyData(this.hostDb, schema.owner, schema.tablePrefix);
  }

  async upgradePending(schema: PluginSchema): Promise<boolean> {
    const db = this.pluginDbs.of(schema.pluginId);
    const pending = verifyMigrations(db, schema);
    if (pending.length === 0) return false;
    return db.prepare('SELECT 1 FROM cerebro_migrations WHERE owner = ? LIMIT 1').get(schema.owner) !== undefined;
  }

  async migrate(schema: PluginSchema): Promise<PluginSchemaChange> {
    const db = this.pluginDbs.of(schema.pluginId);
    // Looked for on the host's own connection first: the move attaches the host file to the plugin's connection,
    // which cost every start ~1 ms per plugin only to find, as it almost always does, nothing to move.
    const moved = holdsLegacyData(this.hostDb, schema.owner, schema.tablePrefix)
      ? moveLegacyPluginTables(db, this.hostDb.name, schema.owner, schema.tablePrefix)
      : { copied: [], dropped: [] };
    return { copied: moved.copied, dropped: moved.dropped, applied: applyMigrations(db, schema) };
  }
}

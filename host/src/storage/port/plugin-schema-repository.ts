import type { Migration } from '@cerebro/sdk';

/** One plugin's schema: its migrations, the ledger owner they are recorded under and the prefix of its objects. */
export interface PluginSchema {
  pluginId: string;
  /** `plugin:<id>`. */
  owner: string;
  tablePrefix: string;
  migrations: readonly Migration[];
}

/** What bringing one plugin's database up to date did. */
export interface PluginSchemaChange {
  /** Tables an older version kept in the host's database, copied to the plugin's and dropped there. */
  copied: string[];
  dropped: string[];
  /** Ids of the migrations applied, in order. */
  applied: string[];
}

/**
 * The plugins' schemas at start: checking each plugin's applied migrations against the code, and migrating. A
 * migration error (newer database, edited migration, wrong order or prefix) rejects with the migrator's
 * `MigrationError`, before anything changed.
 *
 * Guarantees: each migration is applied in one transaction with its ledger row; tables moved from the host's
 * database are copied before they are dropped there.
 */
export interface PluginSchemaRepository {
  /** Whether the host's database still holds tables of this plugin from before one database per plugin. */
  holdsLegacyTables(schema: PluginSchema): Promise<boolean>;
  /** Verifies the ledger; true when migrations are pending on a database that already has applied ones (an upgrade). */
  upgradePending(schema: PluginSchema): Promise<boolean>;
  /** Moves the plugin's old tables out of the host's database, then applies its pending migrations. */
  migrate(schema: PluginSchema): Promise<PluginSchemaChange>;
}

// Installations from before one-database-per-plugin keep each plugin's tables in the host file (`cerebro.db`).
// At start, before its migrations run, a plugin's tables (every object with its prefix) and its migration records
// are moved into the plugin's own file. The copy is one transaction on the plugin file; the drop from the host file
// is a second one, because across attached WAL databases SQLite only promises atomicity per file. A crash between
// the two leaves the plugin file complete and stale copies in the host file: the next start sees the plugin file
// already holds the records and only finishes the drop. No order of crashes loses a row.
import { ensureLedger, touchedObjects } from './migrator.js';
import type { SqliteDatabase } from './database.js';
import { HOST_MIGRATIONS } from './migrations/index.js';

const ALIAS = 'host_legacy';

/**
 * Host tables whose names happen to start with some plugin prefix (`space_modules` for a plugin `space`): never
 * a plugin's, never moved.
 */
const HOST_OBJECTS = new Set(HOST_MIGRATIONS.flatMap((m) => touchedObjects(m.sql)).map((name) => name.toLowerCase()));
const isPluginObject = (name: string, prefix: string): boolean => {
  const lower = name.toLowerCase();
  return lower.startsWith(prefix.toLowerCase()) && !HOST_OBJECTS.has(lower) && !lower.startsWith('sqlite_');
};

interface SchemaObject {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  sql: string;
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The plugin's objects in the host file, in creation order, without internal ones (autoindexes, FTS shadow tables). */
function legacyObjects(db: SqliteDatabase, prefix: string): SchemaObject[] {
  const shadow = new Set(
    (db.prepare(`PRAGMA ${ALIAS}.table_list`).all() as { name: string; type: string }[])
      .filter((t) => t.type === 'shadow')
      .map((t) => t.name),
  );
  return (
    db
      .prepare(`SELECT type, name, sql FROM ${ALIAS}.sqlite_master WHERE sql IS NOT NULL ORDER BY rowid`)
      .all() as SchemaObject[]
  ).filter((o) => isPluginObject(o.name, prefix) && !shadow.has(o.name));
}

/** Columns a row copy can write: hidden and generated columns are filled in by SQLite itself. */
function writableColumns(db: SqliteDatabase, table: string): string {
  const columns = db.prepare(`PRAGMA ${ALIAS}.table_xinfo(${quoted(table)})`).all() as {
    name: string;
    hidden: number;
  }[];
  return columns
    .filter((c) => c.hidden === 0)
    .map((c) => quoted(c.name))
    .join(', ');
}

function hostHasLedger(db: SqliteDatabase): boolean {
  return (
    db.prepare(`SELECT 1 FROM ${ALIAS}.sqlite_master WHERE type = 'table' AND name = 'cerebro_migrations'`).get() !==
    undefined
  );
}

/** Whether the host file still holds anything of a plugin (checked on the host's own connection, attaching nothing). */
export function holdsLegacyData(hostDb: SqliteDatabase, owner: string, prefix: string): boolean {
  const ledger =
    hostDb.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cerebro_migrations'").get() !==
    undefined;
  if (ledger && hostDb.prepare('SELECT 1 FROM cerebro_migrations WHERE owner = ? LIMIT 1').get(owner) !== undefined)
    return true;
  return (hostDb.prepare('SELECT name FROM sqlite_master').pluck().all() as string[]).some((name) =>
    isPluginObject(name, prefix),
  );
}

export interface LegacyMove {
  /** Tables copied into the plugin file on this start. */
  copied: string[];
  /** Objects removed from the host file on this start. */
  dropped: string[];
}

/**
 * Moves a plugin's tables and migration records from the host file into the plugin's own file (its connection
 * `pluginDb`). Does nothing when the host file holds nothing of the plugin.
 */
export function moveLegacyPluginTables(
  pluginDb: SqliteDatabase,
  hostFile: string,
  owner: string,
  prefix: string,
): LegacyMove {
  const move: LegacyMove = { copied: [], dropped: [] };
  pluginDb.prepare(`ATTACH DATABASE ? AS ${ALIAS}`).run(hostFile);
  try {
    if (!hostHasLedger(pluginDb)) return move;
    const records = pluginDb
      .prepare(`SELECT count(*) AS n FROM ${ALIAS}.cerebro_migrations WHERE owner = ?`)
      .get(owner) as { n: number };
    const objects = legacyObjects(pluginDb, prefix);
    if (records.n === 0 && objects.length === 0) return move;

    ensureLedger(pluginDb);
    const alreadyCopied =
      pluginDb.prepare('SELECT 1 FROM main.cerebro_migrations WHERE owner = ? LIMIT 1').get(owner) !== undefined;
    if (!alreadyCopied) {
      pluginDb.transaction(() => {
        pluginDb.pragma('defer_foreign_keys = ON');
        const tables = objects.filter((o) => o.type === 'table');
        for (const t of tables) pluginDb.exec(t.sql); // the stored text recreates the object in the main schema
        for (const t of tables) {
          const columns = writableColumns(pluginDb, t.name);
          pluginDb.exec(
            `INSERT INTO main.${quoted(t.name)} (${columns}) SELECT ${columns} FROM ${ALIAS}.${quoted(t.name)}`,
          );
          move.copied.push(t.name);
        }
        // Indexes after the rows (faster), triggers after the copy (so they do not fire on it), views last.
        for (const type of ['index', 'trigger', 'view'] as const) {
          for (const o of objects.filter((x) => x.type === type)) pluginDb.exec(o.sql);
        }
        pluginDb
          .prepare(
            `INSERT INTO main.cerebro_migrations (owner, id, checksum, applied_at)
           SELECT owner, id, checksum, applied_at FROM ${ALIAS}.cerebro_migrations WHERE owner = ?`,
          )
          .run(owner);
      })();
    }

    pluginDb.transaction(() => {
      pluginDb.pragma('defer_foreign_keys = ON');
      // Views and triggers first; dropping a table drops its own indexes and triggers. Children before parents.
      for (const o of objects.filter((x) => x.type === 'view' || x.type === 'trigger')) {
        pluginDb.exec(`DROP ${o.type.toUpperCase()} IF EXISTS ${ALIAS}.${quoted(o.name)}`);
        move.dropped.push(o.name);
      }
      for (const t of objects.filter((x) => x.type === 'table').reverse()) {
        pluginDb.exec(`DROP TABLE IF EXISTS ${ALIAS}.${quoted(t.name)}`);
        move.dropped.push(t.name);
      }
      pluginDb.prepare(`DELETE FROM ${ALIAS}.cerebro_migrations WHERE owner = ?`).run(owner);
    })();
    return move;
  } finally {
    pluginDb.exec(`DETACH DATABASE ${ALIAS}`);
  }
}

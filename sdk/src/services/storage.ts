/**
 * The plugin's handle on its own SQLite database file, `<data>/plugins/<id>.db` (better-sqlite3, synchronous).
 * Host tables and other plugins' tables are not in that file: host data is reached through the other host services.
 *
 * A plugin's migrations run on that file and may only create objects whose names start with its table prefix
 * (`<id>_`, dashes as underscores); the host checks this when it applies them. Queries run synchronously on the event loop: keep them
 * short and indexed, and wrap multi-statement writes in `transaction`.
 */
export interface SqlStatement<Row = unknown> {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  iterate(...params: unknown[]): IterableIterator<Row>;
}

export interface PluginStorage {
  /** Prefix every table, index and trigger of this plugin must start with, e.g. `marca_`. */
  readonly tablePrefix: string;
  prepare<Row = unknown>(sql: string): SqlStatement<Row>;
  exec(sql: string): void;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
}

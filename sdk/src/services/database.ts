/**
 * The plugin's database, asynchronous and backend-neutral (sdk 2): the same calls run on the plugin's SQLite file
 * today and on its own PostgreSQL schema and role later, so a plugin written against this interface never changes
 * when the operator moves Cerebro to PostgreSQL.
 *
 * Portable SQL, which every backend accepts:
 * - Parameters are `?` placeholders, bound in order, never interpolated into the text (a backend that numbers its
 *   placeholders, like PostgreSQL's `$1`, translates them). Never build SQL from values.
 * - A statement is one statement (no `;`-separated scripts): schema changes belong in the manifest's `migrations`.
 * - Generated keys come back through `INSERT … RETURNING id` with `query`, not through a driver's last row id.
 * - Tables, indexes and triggers start with `tablePrefix`. Integer columns come back as JS numbers, text as strings,
 *   NULL as `null`; store booleans as 0/1 and times as ISO-8601 text.
 */
export type SqlValue = string | number | bigint | Uint8Array | null;

/** What a write changed. */
export interface ExecuteResult {
  /** Rows inserted, updated or deleted by the statement. */
  changes: number;
}

/** Statements on the plugin's database: the handle itself, or a transaction's `tx`. */
export interface SqlSession {
  /** Rows of a statement that returns rows (`SELECT`, or a write with `RETURNING`), in the statement's order. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** The first row of `query`, or `undefined` when there is none. */
  queryOne<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** A statement run for its effect (`INSERT`, `UPDATE`, `DELETE`). */
  execute(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult>;
}

/**
 * The plugin's handle on its own database (`HostServices.Database`). Host tables and other plugins' tables are out
 * of its reach: host data is read through the other host services.
 *
 * Guarantees every backend gives:
 * - `transaction(async tx => …)` runs the callback's statements (through `tx`) as one transaction: it commits when
 *   the callback's promise resolves and resolves with its value; it rolls back when the callback throws or rejects,
 *   and rejects with that same error. `tx` is only usable until the callback settles.
 * - Writes of a transaction are invisible to other statements until it commits, and a rollback never undoes a
 *   statement run outside it. Concurrent transactions never see each other's uncommitted writes; change counters
 *   with one statement (`SET n = n + 1`) or a conditional `UPDATE … WHERE`, not by reading then writing back.
 * - Inside the callback, statements go through `tx`: the handle itself rejects them (`SqlMisuseError`) instead of
 *   waiting for the transaction that waits for them. Transactions do not nest.
 * - A failing statement rejects its promise and leaves the handle usable.
 */
export interface PluginDatabase extends SqlSession {
  /** Prefix every table, index and trigger of this plugin must start with, e.g. `marca_`. */
  readonly tablePrefix: string;
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
}

/** A statement issued where the contract forbids it (through the handle inside its own transaction, or a `tx` after it ended). */
export class SqlMisuseError extends Error {
  override readonly name = 'SqlMisuseError';
}

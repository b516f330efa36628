// The PostgreSQL driver, loaded only when `CEREBRO_DATABASE_URL` is set: the embedded start never imports `pg`, and
// the single executable does not carry it (scripts/binary/bundle.mjs keeps it out of the bundles).
import type { Pool, PoolClient, PoolConfig, QueryResult, QueryResultRow } from 'pg';
import { ScopedAsyncStorage } from '../../kernel/scoped-async-storage.js';

export type { Pool, PoolClient };

/** How many connections one process keeps to the server at most, unless told otherwise. */
const DEFAULT_POOL_SIZE = 10;

/** Type ids of the results converted by the pool (pg's built-in type oids). */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

async function loadPg(): Promise<typeof import('pg')> {
  try {
    return await import('pg');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(
        'CEREBRO_DATABASE_URL pide PostgreSQL, pero el paquete "pg" no está instalado (el ejecutable único solo trae SQLite): instala Cerebro con npm para usar PostgreSQL.',
      );
    }
    throw err;
  }
}

/**
 * A pool of connections to `url`. BIGINT and NUMERIC come back as JavaScript numbers, as better-sqlite3 gives
 * integers: ids and counters stay far below 2^53.
 */
export async function createPgPool(
  url: string,
  options: Omit<PoolConfig, 'connectionString'> = {},
  /** Told when an idle connection fails (to log it); the pool has already dropped it. */
  onIdleError: (err: Error) => void = () => undefined,
): Promise<Pool> {
  const pg = await loadPg();
  const asNumber = (value: string) => Number(value);
  const pool = new pg.Pool({
    connectionString: url,
    max: DEFAULT_POOL_SIZE,
    ...options,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? asNumber
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server closed (a restart, a failover, an administrator) must not crash the process: the
  // pool drops it and the next query opens another. Without a listener, pg rethrows it as an uncaught error.
  pool.on('error', onIdleError);
  return pool;
}

/** The transaction running in this async context, per pool: what `inTransaction` joins instead of opening another. */
const ambient = new ScopedAsyncStorage<{ pool: Pool; client: PoolClient }>();

/**
 * Runs `work` in one transaction on one connection of the pool: committed when it resolves, rolled back if it throws.
 * Called (directly or through a callback, e.g. a refund) inside another `inTransaction` on the same pool, it joins
 * that transaction under a savepoint instead of opening a second connection: so a repository's transaction can take
 * another repository's writes into its own commit, as SQLite's nested `db.transaction` does.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const outer = ambient.getStore();
  if (outer?.pool === pool) return inSavepoint(outer.client, work);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await ambient.run({ pool, client }, () => work(client));
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` as part of the transaction `client` has open on `pool` (begun by the caller, as the migration lock's
 * connection does): `inTransaction` and `pgQuery` on the pool, called from inside it, join that transaction.
 */
export function joinedTo<T>(pool: Pool, client: PoolClient, work: () => Promise<T>): Promise<T> {
  return ambient.run({ pool, client }, work);
}

async function inSavepoint<T>(client: PoolClient, work: (client: PoolClient) => Promise<T>): Promise<T> {
  await client.query('SAVEPOINT cerebro_nested');
  try {
    const result = await work(client);
    await client.query('RELEASE SAVEPOINT cerebro_nested');
    return result;
  } catch (err) {
    await client.query('ROLLBACK TO SAVEPOINT cerebro_nested').catch(() => undefined);
    throw err;
  }
}

/**
 * One statement on the pool, or on the transaction running in this async context on the same pool (see
 * `inTransaction`): a single-statement write called from inside another repository's transaction commits with it.
 */
export function pgQuery<R extends QueryResultRow = QueryResultRow>(
  pool: Pool,
  sql: string,
  params?: unknown[],
): Promise<QueryResult<R>> {
  const outer = ambient.getStore();
  return (outer?.pool === pool ? outer.client : pool).query<R>(sql, params);
}

// The PostgreSQL driver, loaded only when `CEREBRO_DATABASE_URL` is set: the embedded start never imports `pg`, and
// the single executable does not carry it (scripts/binary/bundle.mjs keeps it out of the bundles).
import type { Pool, PoolClient, PoolConfig } from 'pg';

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

/** Runs `work` in one transaction on one connection of the pool: committed when it resolves, rolled back if it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

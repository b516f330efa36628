// Where several `cerebro serve` processes of a test keep their shared state: one SQLite database in a data folder
// they all open (WAL), or a PostgreSQL database of the test's own plus Redis. Either way the processes share the data
// folder too, as hosts of one machine would (or several, with the folder on a shared mount).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const TEST_SERVER_URL = process.env.CEREBRO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.CEREBRO_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

export interface SharedState {
  backend: 'sqlite' | 'postgres';
  dataDir: string;
  /** Environment every process gets (the database and Redis settings on PostgreSQL; nothing on SQLite). */
  env: Record<string, string>;
  /** Removes the data folder (and the PostgreSQL database). */
  close(): Promise<void>;
}

export async function sqliteState(): Promise<SharedState> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-shared-'));
  return { backend: 'sqlite', dataDir, env: {}, close: () => rm(dataDir, { recursive: true, force: true }) };
}

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Null when the test PostgreSQL server answers; otherwise why the tests that need it are skipped. */
export async function postgresUnavailable(): Promise<string | null> {
  try {
    await onServer('SELECT 1');
    return null;
  } catch (err) {
    return `PostgreSQL no responde en ${new URL(TEST_SERVER_URL).host} (${(err as Error).message})`;
  }
}

/** A fresh, empty PostgreSQL database (the hosts migrate it) and Redis; dropped at `close`. */
export async function postgresState(): Promise<SharedState> {
  const name = `cerebro_t_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-shared-'));
  return {
    backend: 'postgres',
    dataDir,
    env: { CEREBRO_DATABASE_URL: url.toString(), CEREBRO_REDIS_URL: TEST_REDIS_URL },
    close: async () => {
      await rm(dataDir, { recursive: true, force: true });
      await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

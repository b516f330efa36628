// Where several `cerebro serve` processes of a test keep their shared state: one SQLite database in a data folder
// they all open (WAL), or a PostgreSQL database of the test's own plus Redis. Either way the processes share the data
// folder too, as hosts of one machine would (or several, with the folder on a shared mount).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchBackend, TEST_SERVER_URL } from '@cerebro/host/test-kit';
import pg from 'pg';

export interface SharedState {
  backend: 'sqlite' | 'postgres';
  dataDir: string;
  /** Environment every process gets (the database and Redis settings on PostgreSQL; nothing on SQLite). */
  env: Record<string, string>;
  /** Removes the data folder (and the PostgreSQL database). */
  close(): Promise<void>;
}

async function sharedState(backend: 'sqlite' | 'postgres'): Promise<SharedState> {
  // Empty: these processes start together on it, and migrating it once between them is part of what is tested.
  const scratch = await scratchBackend(backend, { empty: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-shared-'));
  return {
    backend,
    dataDir,
    env: scratch.env,
    close: async () => {
      await rm(dataDir, { recursive: true, force: true });
      await scratch.close();
    },
  };
}

export const sqliteState = (): Promise<SharedState> => sharedState('sqlite');
/** A fresh, empty PostgreSQL database (the hosts migrate it) and Redis; dropped at `close`. */
export const postgresState = (): Promise<SharedState> => sharedState('postgres');

/** Null when the test PostgreSQL server answers; otherwise why the tests that need it are skipped. */
export async function postgresUnavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return `PostgreSQL no responde en ${new URL(TEST_SERVER_URL).host} (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

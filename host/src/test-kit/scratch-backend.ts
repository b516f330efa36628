// The backend a test's host runs on: SQLite in its data folder (the default), or, with CEREBRO_TEST_BACKEND=postgres,
// a PostgreSQL database of its own on the test server plus the test Redis. `.ci/run` runs the whole suite both ways
// (issue #25 item 5); a plugin author gets the same by setting the variable, since the sdk's `startTestHost` asks here.
import { migratedTemplate } from './migrated-template.js';
import { markFinished, scratchName } from './scratch-sweeper.js';
import {
  databasesStartingWith,
  databaseUrl,
  dropWithPluginRoles,
  onServer,
  TEST_REDIS_URL,
  TEST_SERVER_URL,
} from './scratch-server.js';

export { TEST_REDIS_URL, TEST_SERVER_URL };

export type TestBackend = 'sqlite' | 'postgres';

/** The backend chosen for this test run: `CEREBRO_TEST_BACKEND` (`sqlite`, the default, or `postgres`). */
export function testBackend(env: NodeJS.ProcessEnv = process.env): TestBackend {
  const chosen = env.CEREBRO_TEST_BACKEND ?? 'sqlite';
  if (chosen !== 'sqlite' && chosen !== 'postgres')
    throw new Error(`CEREBRO_TEST_BACKEND=${chosen}: los valores posibles son sqlite y postgres.`);
  return chosen;
}

/**
 * Prefix of the databases a test run creates: `cerebro_t_<run>_`, with the run's id from CEREBRO_TEST_RUN_ID
 * (scripts/run-tests.mjs sets one and drops what is left under it at the end), so that runs of several checkouts
 * on one server never drop each other's databases.
 */
export function scratchPrefix(env: NodeJS.ProcessEnv = process.env): string {
  const run = runIdOf(env);
  return run ? `cerebro_t_${run}_` : 'cerebro_t_';
}

export const runIdOf = (env: NodeJS.ProcessEnv): string =>
  (env.CEREBRO_TEST_RUN_ID ?? '').replace(/[^a-z0-9]/g, '').slice(0, 16);

/**
 * Whether this process's databases belong to a run whose sweeper drops them (scripts/run-tests.mjs with
 * CEREBRO_TEST_BACKEND=postgres sets CEREBRO_TEST_SWEEPER=1 beside the run id). Only then are they cloned from the
 * run's template and left to the sweeper at close: a SQLite run's id reaches processes that use PostgreSQL on their
 * own (a plugin author's `npm run test:postgres` run by a test), and nothing would drop what they left.
 */
export const sweptRun = (env: NodeJS.ProcessEnv): boolean => runIdOf(env) !== '' && env.CEREBRO_TEST_SWEEPER === '1';

export interface ScratchBackend {
  backend: TestBackend;
  /** What the host's environment needs to run on it (nothing on SQLite). */
  env: Record<string, string>;
  /**
   * Done with the database (nothing on SQLite): within a test run it is marked for the run's sweeper to drop in the
   * background (test-kit/scratch-sweeper.ts); otherwise it is dropped here.
   */
  close(): Promise<void>;
}

export interface ScratchOptions {
  /**
   * An empty database, which the first host to start migrates (tests of migrating, of hosts starting together).
   * Otherwise, within a swept test run (`sweptRun`), a copy of the run's migrated template: what a host's first
   * start leaves, without each host paying for it (test-kit/migrated-template.ts).
   */
  empty?: boolean;
}

/** A fresh backend for one host (or several sharing it), with no data: the host migrates what is left and starts. */
export async function scratchBackend(
  backend: TestBackend = testBackend(),
  options: ScratchOptions = {},
): Promise<ScratchBackend> {
  if (backend === 'sqlite') return { backend, env: {}, close: async () => {} };
  const prefix = scratchPrefix();
  const inRun = sweptRun(process.env);
  const name = scratchName(prefix);
  const template = options.empty || !inRun ? null : await migratedTemplate(TEST_SERVER_URL, prefix);
  // C collation: text compares by code point, as SQLite's BINARY does (a copy keeps its template's).
  await onServer(
    template
      ? `CREATE DATABASE ${name} TEMPLATE ${template}`
      : `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
  );
  let dropped = false;
  return {
    backend,
    env: { CEREBRO_DATABASE_URL: databaseUrl(name), CEREBRO_REDIS_URL: TEST_REDIS_URL },
    close: async () => {
      if (dropped) return;
      dropped = true;
      if (!inRun || !(await markFinished(name))) await dropWithPluginRoles(name);
    },
  };
}

/**
 * Drops every database left under this run's prefix: the run's template, databases a process never closed, and
 * those the sweeper had not reached. Nothing without a run id (the bare prefix would reach other runs' databases).
 */
export async function dropScratchDatabases(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  if (!runIdOf(env)) return [];
  const names = await databasesStartingWith(scratchPrefix(env));
  for (const name of names) await dropWithPluginRoles(name);
  return names;
}

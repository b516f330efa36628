// The backend a test's host runs on: SQLite in its data folder (the default), or, with CEREBRO_TEST_BACKEND=postgres,
// a PostgreSQL database of its own on the test server plus the test Redis. `.ci/run` runs the whole suite both ways
// (issue #25 item 5); a plugin author gets the same by setting the variable, since the sdk's `startTestHost` asks here.
import { randomBytes } from 'node:crypto';
import { createPgPool } from '../storage/postgres/pg-driver.js';

/** The test PostgreSQL server's maintenance database, where test databases are created from. */
export const TEST_SERVER_URL = process.env.CEREBRO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The test Redis (each host's keys live under its database's own prefix). */
export const TEST_REDIS_URL = process.env.CEREBRO_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

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
  const run = (env.CEREBRO_TEST_RUN_ID ?? '').replace(/[^a-z0-9]/g, '').slice(0, 16);
  return run ? `cerebro_t_${run}_` : 'cerebro_t_';
}

export interface ScratchBackend {
  backend: TestBackend;
  /** What the host's environment needs to run on it (nothing on SQLite). */
  env: Record<string, string>;
  /** Drops the database (nothing on SQLite). */
  close(): Promise<void>;
}

async function onServer(...statements: string[]): Promise<void> {
  const admin = await createPgPool(TEST_SERVER_URL, { max: 1, connectionTimeoutMillis: 5_000 });
  try {
    for (const sql of statements) await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** PostgreSQL's codes for a missing table and a missing database (one its own test dropped meanwhile). */
const UNDEFINED_TABLE = '42P01';
const UNDEFINED_DATABASE = '3D000';

const databaseUrl = (name: string): string => {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The plugin roles the hosts on database `name` created (none if no plugin was ever loaded there). */
async function pluginRolesOf(name: string): Promise<string[]> {
  const pool = await createPgPool(databaseUrl(name), { max: 1, connectionTimeoutMillis: 5_000 });
  try {
    const { rows } = await pool.query<{ role: string }>('SELECT role FROM cerebro_plugin_roles');
    return rows.map((row) => row.role);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === UNDEFINED_TABLE || code === UNDEFINED_DATABASE) return [];
    throw err;
  } finally {
    await pool.end();
  }
}

/** Drops database `name`, then the plugin roles its hosts created: roles belong to the server, not to a database. */
async function dropWithPluginRoles(name: string): Promise<void> {
  const roles = await pluginRolesOf(name);
  await onServer(
    `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
    ...roles.map((role) => `DROP ROLE IF EXISTS "${role.replaceAll('"', '""')}"`),
  );
}

/** A fresh, empty backend for one host (or several sharing it): the host migrates it on start. */
export async function scratchBackend(backend: TestBackend = testBackend()): Promise<ScratchBackend> {
  if (backend === 'sqlite') return { backend, env: {}, close: async () => {} };
  const name = `${scratchPrefix()}${randomBytes(6).toString('hex')}`;
  // C collation: text compares by code point, as SQLite's BINARY does.
  await onServer(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  let dropped = false;
  return {
    backend,
    env: { CEREBRO_DATABASE_URL: databaseUrl(name), CEREBRO_REDIS_URL: TEST_REDIS_URL },
    close: async () => {
      if (dropped) return;
      dropped = true;
      await dropWithPluginRoles(name);
    },
  };
}

/** Drops every database left under this run's prefix (a test process that ended before its cleanup ran). */
export async function dropScratchDatabases(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const prefix = scratchPrefix(env);
  const admin = await createPgPool(TEST_SERVER_URL, { max: 1, connectionTimeoutMillis: 5_000 });
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1 || '%' AND datname NOT LIKE 'cerebro_tpl_%'",
      [prefix],
    );
    for (const { datname } of rows) await dropWithPluginRoles(datname);
    return rows.map((r) => r.datname);
  } finally {
    await admin.end();
  }
}

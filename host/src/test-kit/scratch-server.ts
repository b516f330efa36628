// The test PostgreSQL server as the test kit uses it: where scratch databases are made and dropped, with the plugin
// roles their hosts created (roles belong to the server, not to a database, so they go with it explicitly).
import { createPgPool } from '../storage/postgres/pg-driver.js';
import { databaseUrlOn } from './migrated-template.js';

/** The test PostgreSQL server's maintenance database, where test databases are created from. */
export const TEST_SERVER_URL = process.env.CEREBRO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The test Redis (each host's keys live under its database's own prefix). */
export const TEST_REDIS_URL = process.env.CEREBRO_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Runs `statements` in order on the maintenance database. */
export async function onServer(...statements: string[]): Promise<void> {
  const admin = await createPgPool(TEST_SERVER_URL, { max: 1, connectionTimeoutMillis: 5_000 });
  try {
    for (const sql of statements) await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** The names of the server's databases that start with `prefix` (compared as text: `_` is no wildcard here). */
export async function databasesStartingWith(prefix: string): Promise<string[]> {
  const admin = await createPgPool(TEST_SERVER_URL, { max: 1, connectionTimeoutMillis: 5_000 });
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE left(datname, length($1)) = $1 ORDER BY datname',
      [prefix],
    );
    return rows.map((r) => r.datname);
  } finally {
    await admin.end();
  }
}

/** PostgreSQL's codes for a missing table and a missing database (one its own test dropped meanwhile). */
const UNDEFINED_TABLE = '42P01';
const UNDEFINED_DATABASE = '3D000';

export const databaseUrl = (name: string): string => databaseUrlOn(TEST_SERVER_URL, name);

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

/** Drops database `name`, then the plugin roles its hosts created. */
export async function dropWithPluginRoles(name: string): Promise<void> {
  const roles = await pluginRolesOf(name);
  await onServer(
    `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
    ...roles.map((role) => `DROP ROLE IF EXISTS "${role.replaceAll('"', '""')}"`),
  );
}

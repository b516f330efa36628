// A database holding the host's PostgreSQL migrations and nothing else, to clone (CREATE DATABASE … TEMPLATE, a copy
// on the server) instead of migrating a fresh database for every test host: 20 migrations, each its own committed
// transaction, cost a host's start several times what the copy does. One per test run (scripts/run-tests.mjs gives
// the run an id, and drops the template at the end with the run's other databases), made once by whichever test
// process needs it first: the others wait on an advisory lock and clone what it made.
import { createHash } from 'node:crypto';
import { PG_HOST_MIGRATIONS } from '../storage/postgres/migrations/index.js';
import { createPgPool } from '../storage/postgres/pg-driver.js';
import { applyPgMigrations } from '../storage/postgres/pg-migrator.js';

/** `url` with database `name` instead of its own. */
export function databaseUrlOn(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

/**
 * Creates database `name` on the server of `serverUrl` (C collation: text compares by code point, as SQLite's
 * BINARY does) with the host's migrations applied, and closes every connection to it, so that it can be cloned.
 */
export async function createMigratedDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = await createPgPool(serverUrl, { max: 1, connectionTimeoutMillis: 5_000 });
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await admin.end();
  }
  const pool = await createPgPool(databaseUrlOn(serverUrl, name), { max: 1 });
  try {
    await applyPgMigrations(pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
  } finally {
    // A template must have no open connection when it is cloned.
    await pool.end();
  }
}

/** The template's name under the run's prefix, with a digest of the migrations: another checkout's never matches. */
export function migratedTemplateName(prefix: string): string {
  const digest = createHash('sha256');
  for (const m of PG_HOST_MIGRATIONS) digest.update(`${m.id}\0${m.sql}\0`);
  return `${prefix}tpl_${digest.digest('hex').slice(0, 12)}`;
}

const made = new Map<string, Promise<string>>();

/**
 * The run's migrated template on the server of `serverUrl`, made if no test process has made it yet. Made under
 * another name and renamed when complete, so that a process killed half-way never leaves a template to clone.
 */
export function migratedTemplate(serverUrl: string, prefix: string): Promise<string> {
  const name = migratedTemplateName(prefix);
  let template = made.get(name);
  if (!template) {
    template = makeOnce(serverUrl, name);
    // A failure is not remembered: the next host asks again (and reports its own error).
    template.catch(() => made.delete(name));
    made.set(name, template);
  }
  return template;
}

async function makeOnce(serverUrl: string, name: string): Promise<string> {
  const admin = await createPgPool(serverUrl, { max: 1, connectionTimeoutMillis: 5_000 });
  // One client held throughout: the advisory lock belongs to its session.
  const client = await admin.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [name]);
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_b`;
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await createMigratedDatabase(serverUrl, building);
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    client.release();
    // Ending the session releases the lock.
    await admin.end();
  }
}

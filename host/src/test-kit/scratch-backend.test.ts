// A scratch PostgreSQL backend leaves nothing on the test server: closing it, or the run's final sweep of databases a
// test process left behind, drops the database and the plugin roles its hosts created (roles belong to the server,
// so they would otherwise pile up run after run).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createPgPool } from '../storage/postgres/pg-driver.js';
import { pgUnavailable } from '../storage/postgres/testing/pg-test-database.js';
import { dropScratchDatabases, scratchBackend, TEST_SERVER_URL } from './scratch-backend.js';

const skip = (await pgUnavailable()) ?? false;
// A run id of this file's own, so the sweep below never reaches another test file's databases.
const runId = `sb${randomBytes(5).toString('hex')}`;
process.env.CEREBRO_TEST_RUN_ID = runId;

async function onServer<R>(sql: string, params: unknown[] = []): Promise<R[]> {
  const pool = await createPgPool(TEST_SERVER_URL, { max: 1 });
  try {
    return (await pool.query<R & object>(sql, params)).rows;
  } finally {
    await pool.end();
  }
}

/** A scratch database with a plugin role recorded in it, as the host's plugin schemas record theirs. */
async function backendWithPluginRole() {
  const backend = await scratchBackend('postgres');
  const role = `cp_${randomBytes(5).toString('hex')}_prueba`;
  await onServer(`CREATE ROLE ${role} LOGIN`);
  const db = await createPgPool(backend.env.CEREBRO_DATABASE_URL!, { max: 1 });
  try {
    await db.query(
      'CREATE TABLE cerebro_plugin_roles (plugin TEXT PRIMARY KEY, role TEXT NOT NULL, secret TEXT NOT NULL)',
    );
    await db.query(`CREATE SCHEMA plugin_prueba AUTHORIZATION ${role}`);
    await db.query("INSERT INTO cerebro_plugin_roles VALUES ('prueba', $1, 'x')", [role]);
  } finally {
    await db.end();
  }
  const name = new URL(backend.env.CEREBRO_DATABASE_URL!).pathname.slice(1);
  return { backend, role, name };
}

const exists = async (role: string, database: string) => ({
  role: (await onServer('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).length === 1,
  database: (await onServer('SELECT 1 FROM pg_database WHERE datname = $1', [database])).length === 1,
});

describe('scratch PostgreSQL backends', { skip }, () => {
  test('close drops the database and the plugin roles recorded in it', async () => {
    const { backend, role, name } = await backendWithPluginRole();
    assert.deepEqual(await exists(role, name), { role: true, database: true });
    await backend.close();
    assert.deepEqual(await exists(role, name), { role: false, database: false });
  });

  test("the run's sweep drops a left-behind database with its plugin roles", async () => {
    const { role, name } = await backendWithPluginRole();
    assert.ok(name.startsWith(`cerebro_t_${runId}_`), name);
    assert.deepEqual(await dropScratchDatabases({ CEREBRO_TEST_RUN_ID: runId }), [name]);
    assert.deepEqual(await exists(role, name), { role: false, database: false });
  });

  test('a database where no plugin was loaded closes as before', async () => {
    const backend = await scratchBackend('postgres');
    const name = new URL(backend.env.CEREBRO_DATABASE_URL!).pathname.slice(1);
    await backend.close();
    assert.equal((await exists('-', name)).database, false);
  });
});

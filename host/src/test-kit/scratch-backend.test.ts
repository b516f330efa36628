// A scratch PostgreSQL backend leaves nothing on the test server: closing it outside a run drops it at once; within a
// run (scripts/run-tests.mjs) closing marks it and the run's sweeper drops it, with the plugin roles its hosts
// created (roles belong to the server, so they would otherwise pile up run after run), as it drops those of test
// processes that have exited, and at the end everything under the run's prefix, its migrated template included.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createPgPool } from '../storage/postgres/pg-driver.js';
import { pgUnavailable } from '../storage/postgres/testing/pg-test-database.js';
import { PG_HOST_MIGRATIONS } from '../storage/postgres/migrations/index.js';
import { migratedTemplateName } from './migrated-template.js';
import { dropScratchDatabases, scratchBackend, scratchPrefix, TEST_SERVER_URL } from './scratch-backend.js';
import { dropFinishedScratchDatabases, isFinished } from './scratch-sweeper.js';

const skip = (await pgUnavailable()) ?? false;
// A run id of this file's own, so the sweeps below never reach another test file's databases.
const runId = `sb${randomBytes(5).toString('hex')}`;
process.env.CEREBRO_TEST_RUN_ID = runId;
process.env.CEREBRO_TEST_SWEEPER = '1';

async function onServer<R>(sql: string, params: unknown[] = []): Promise<R[]> {
  const pool = await createPgPool(TEST_SERVER_URL, { max: 1 });
  try {
    return (await pool.query<R & object>(sql, params)).rows;
  } finally {
    await pool.end();
  }
}

async function onDatabase<R>(backend: { env: Record<string, string> }, sql: string): Promise<R[]> {
  const pool = await createPgPool(backend.env.CEREBRO_DATABASE_URL!, { max: 1 });
  try {
    return (await pool.query<R & object>(sql)).rows;
  } finally {
    await pool.end();
  }
}

const nameOf = (backend: { env: Record<string, string> }) =>
  new URL(backend.env.CEREBRO_DATABASE_URL!).pathname.slice(1);

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
  return { backend, role, name: nameOf(backend) };
}

const exists = async (role: string, database: string) => ({
  role: (await onServer('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).length === 1,
  database: (await onServer('SELECT 1 FROM pg_database WHERE datname = $1', [database])).length === 1,
});

/** Runs `work` as a process outside any swept test run would (`sweepless`: a run id, but nobody sweeping it). */
async function outsideARun<T>(work: () => Promise<T>, sweepless = false): Promise<T> {
  if (sweepless) delete process.env.CEREBRO_TEST_SWEEPER;
  else delete process.env.CEREBRO_TEST_RUN_ID;
  try {
    return await work();
  } finally {
    process.env.CEREBRO_TEST_RUN_ID = runId;
    process.env.CEREBRO_TEST_SWEEPER = '1';
  }
}

test("which scratch databases the sweeper takes: closed ones, and a gone process's; never the template", () => {
  const prefix = 'cerebro_t_run1_';
  const alive = (pid: number) => pid === 1234;
  const live = `${prefix}p${(1234).toString(36)}_0123456789ab`;
  const gone = `${prefix}p${(999).toString(36)}_0123456789ab`;
  assert.equal(isFinished(live, prefix, alive), false);
  assert.equal(isFinished(`${live}_f`, prefix, alive), true);
  assert.equal(isFinished(gone, prefix, alive), true);
  assert.equal(
    isFinished(`${prefix}tpl_0123456789ab`, prefix, () => false),
    false,
  );
  assert.equal(
    isFinished(`${prefix}tpl_0123456789ab_b`, prefix, () => false),
    false,
  );
  assert.equal(
    isFinished(`cerebro_t_run2_p${(999).toString(36)}_0123456789ab`, prefix, () => false),
    false,
  );
});

describe('scratch PostgreSQL backends', { skip }, () => {
  for (const sweepless of [false, true])
    test(`outside a ${sweepless ? 'swept run (a run id, nobody sweeping)' : 'run'}, close drops the database and its plugin roles`, async () => {
      const { backend, role, name } = await outsideARun(backendWithPluginRole, sweepless);
      assert.deepEqual(await exists(role, name), { role: true, database: true });
      await backend.close();
      assert.deepEqual(await exists(role, name), { role: false, database: false });
    });

  test("within a run, close marks the database; the sweeper drops it with its roles, and a gone process's", async () => {
    const prefix = scratchPrefix();
    const closed = await backendWithPluginRole();
    const open = await scratchBackend('postgres');
    await closed.backend.close();
    assert.deepEqual(await exists(closed.role, closed.name), { role: true, database: false });
    assert.equal((await exists('-', `${closed.name}_f`)).database, true, 'renamed with the mark');

    // This process is alive: only the closed one goes.
    assert.deepEqual(await dropFinishedScratchDatabases(prefix), [`${closed.name}_f`]);
    assert.deepEqual(await exists(closed.role, `${closed.name}_f`), { role: false, database: false });
    assert.equal((await exists('-', nameOf(open))).database, true);
    // Once the process that made it is gone (as this one pretends), the open one goes too; the template stays.
    assert.deepEqual(await dropFinishedScratchDatabases(prefix, () => false), [nameOf(open)]);
    assert.equal((await exists('-', migratedTemplateName(prefix))).database, true);
  });

  test("within a run a scratch database is a copy of the run's migrated template; an empty one has no table", async () => {
    const migrated = await scratchBackend('postgres');
    const empty = await scratchBackend('postgres', { empty: true });
    try {
      const applied = await onDatabase<{ id: string }>(
        migrated,
        "SELECT id FROM cerebro_migrations WHERE owner = 'host' ORDER BY id",
      );
      assert.deepEqual(
        applied.map((r) => r.id),
        PG_HOST_MIGRATIONS.map((m) => m.id),
      );
      assert.deepEqual(await onDatabase(migrated, 'SELECT id FROM owners'), [], 'no data: the host bootstraps it');
      assert.deepEqual(await onDatabase(empty, "SELECT 1 FROM pg_tables WHERE schemaname = 'public'"), []);
      const collation = await onServer('SELECT datcollate FROM pg_database WHERE datname = $1', [nameOf(migrated)]);
      assert.deepEqual(collation, [{ datcollate: 'C' }]);
    } finally {
      await migrated.close();
      await empty.close();
    }
  });

  test('outside a run a scratch database is empty, and the final sweep has nothing to take', async () => {
    const backend = await outsideARun(() => scratchBackend('postgres'));
    try {
      assert.deepEqual(await onDatabase(backend, "SELECT 1 FROM pg_tables WHERE schemaname = 'public'"), []);
      assert.deepEqual(await dropScratchDatabases({}), []);
    } finally {
      await backend.close();
    }
    assert.equal((await exists('-', nameOf(backend))).database, false);
  });

  // Last: the final sweep drops the run's template too, which the cases above clone.
  test("the run's final sweep drops everything under its prefix: left-behind databases, roles and the template", async () => {
    const { role, name } = await backendWithPluginRole();
    assert.ok(name.startsWith(`cerebro_t_${runId}_`), name);
    const prefix = scratchPrefix();
    const left = await onServer<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE left(datname, length($1)) = $1',
      [prefix],
    );
    const dropped = await dropScratchDatabases({ CEREBRO_TEST_RUN_ID: runId });
    assert.deepEqual(dropped.sort(), left.map((r) => r.datname).sort());
    assert.ok(dropped.includes(name) && dropped.includes(migratedTemplateName(prefix)), dropped.join(', '));
    assert.deepEqual(await exists(role, name), { role: false, database: false });
    assert.deepEqual(await onServer('SELECT 1 FROM pg_database WHERE left(datname, length($1)) = $1', [prefix]), []);
  });
});

// The plugin `cerebro plugins nuevo` writes, without npm: its src/index.ts, transpiled as the project's build would,
// loads on a host on SQLite and on a host on PostgreSQL + Redis (the sdk's testing kit with CEREBRO_TEST_BACKEND),
// where the PostgreSQL twin of its migration creates the table its routes write and read. A hyphenated id checks the
// table prefix. new-plugin-project.test.ts runs the whole project (npm install, its own tests on both backends).
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PluginDefinition } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import ts from 'typescript';
import { postgresMissing } from './support/postgres-available.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const hostModule = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(ROOT, 'host/dist', path)).href)) as T;

const { pluginProjectFiles } = await hostModule<{
  pluginProjectFiles(id: string, kit: { sdk: string; host: string }): Record<string, string>;
}>('plugins/scaffold/plugin-template.js');
const { createPgPool } = await hostModule<{
  createPgPool(
    url: string,
    options?: { max?: number },
  ): Promise<{ query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>; end(): Promise<void> }>;
}>('storage/postgres/pg-driver.js');
const { TEST_SERVER_URL } = await hostModule<{ TEST_SERVER_URL: string }>('test-kit/index.js');
const noPostgres = await postgresMissing();

const ID = 'mi-eco';

/** The generated plugin's definition: its index.ts as JavaScript, in a folder whose node_modules is the workspace's. */
async function generatedPlugin(t: { after(fn: () => unknown): void }): Promise<PluginDefinition> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-plantilla-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const source = pluginProjectFiles(ID, { sdk: '/sdk.tgz', host: '/host.tgz' })['src/index.ts']!;
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'index.mjs'), outputText);
  return ((await import(pathToFileURL(join(dir, 'index.mjs')).href)) as { default: PluginDefinition }).default;
}

/**
 * Runs `fn` with the testing kit's hosts on `backend` as a plugin author's project runs them (no test run of this
 * workspace around them: no CEREBRO_TEST_RUN_ID, so the kit migrates a fresh database and drops it, with the
 * plugin's role, when the host closes), then restores this run's own settings.
 */
async function onBackend<T>(backend: 'sqlite' | 'postgres', fn: () => Promise<T>): Promise<T> {
  const before = { backend: process.env.CEREBRO_TEST_BACKEND, run: process.env.CEREBRO_TEST_RUN_ID };
  process.env.CEREBRO_TEST_BACKEND = backend;
  delete process.env.CEREBRO_TEST_RUN_ID;
  try {
    return await fn();
  } finally {
    restore('CEREBRO_TEST_BACKEND', before.backend);
    restore('CEREBRO_TEST_RUN_ID', before.run);
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** The PostgreSQL roles of this plugin on the test server, whichever host made them. */
async function pluginRoles(): Promise<string[]> {
  const server = await createPgPool(TEST_SERVER_URL, { max: 1 });
  try {
    const { rows } = await server.query<{ rolname: string }>(
      "SELECT rolname FROM pg_roles WHERE rolname LIKE 'cp\\_%\\_mi\\_eco'",
    );
    return rows.map((row) => row.rolname);
  } finally {
    await server.end();
  }
}

for (const backend of ['sqlite', 'postgres'] as const) {
  test(`the generated plugin loads on ${backend}; eco stores in its own table and ecos lists it`, {
    skip: backend === 'postgres' ? noPostgres : false,
  }, async (t) => {
    const plugin = await generatedPlugin(t);
    assert.deepEqual(
      plugin.manifest.postgresMigrations?.map((m) => m.id),
      plugin.manifest.migrations?.map((m) => m.id),
      'the PostgreSQL twins have the same ids',
    );
    const rolesBefore = backend === 'postgres' ? await pluginRoles() : [];
    const h = await onBackend(backend, () => startTestHost(t, { plugins: [plugin], credits: 5 }));
    const base = `/mod/${ID}/${h.spaceId}`;
    assert.equal((await h.client.post(`${base}/eco`, { json: { texto: 'uno' } })).status, 201);
    assert.equal((await h.client.post(`${base}/eco`, { json: { texto: 'dos' } })).status, 201);
    const listed = await h.client.get(`${base}/ecos`, { key: h.readKey });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(listed.body, { ecos: ['uno', 'dos'] }, 'in insertion order');
    await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api', ID] });
    assert.deepEqual((await h.client.get(`/mod/${ID}/otro/ecos`)).body, { ecos: [] }, 'per space');

    if (backend === 'postgres') {
      // The kit drops the plugin's role with the host's database: roles belong to the server and would pile up.
      // Roles this host made are told apart from any other run left on the shared server (a run killed mid-test).
      const mine = (await pluginRoles()).filter((name) => !rolesBefore.includes(name));
      assert.equal(mine.length, 1, 'the plugin logs in as a role of its own');
      await h.close();
      assert.ok(!(await pluginRoles()).includes(mine[0]!), 'its role is dropped with the host');
    }
  });
}

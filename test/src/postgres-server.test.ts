// A whole Cerebro on PostgreSQL + Redis (issue #25): real `cerebro serve` processes and real `cerebro admin` runs on
// one fresh database, each host with a data folder of its own. Two hosts starting together set up the first run
// once; the operator's owner, space and keys are seen by every host; the first-party plugins load in their own
// schemas; a document indexed by one host answers from both; a key's limit is counted once across hosts; a restart
// keeps everything.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { GUIDE_MD } from './support/rag.js';
import { call } from './support/bearer-call.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'host/dist/cli/main.js');
const hostModule = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(ROOT, 'host/dist', path)).href)) as T;

interface TestDatabase {
  name: string;
  url: string;
  pool: { query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }> };
  drop(): Promise<void>;
}
const pgTesting = await hostModule<{
  pgUnavailable(): Promise<string | null>;
  createTestDatabase(poolSize?: number): Promise<TestDatabase>;
  TEST_SERVER_URL: string;
}>('storage/postgres/testing/pg-test-database.js');
const redisTesting = await hostModule<{ redisUnavailable(): Promise<string | null>; TEST_REDIS_URL: string }>(
  'storage/redis/testing-redis.js',
);
const { createPgPool } = await hostModule<{
  createPgPool(url: string, options?: { max?: number }): Promise<TestDatabase['pool'] & { end(): Promise<void> }>;
}>('storage/postgres/pg-driver.js');

const skip = (await pgTesting.pgUnavailable()) ?? (await redisTesting.redisUnavailable()) ?? false;
const run = promisify(execFile);

const ask = (server: ServerProcess, key: string, space: string, pregunta: string) =>
  call(server, key, `/rag/${space}/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pregunta }),
  });

interface ListedDocument {
  nombre: string;
  estado: string;
}

/** The space's document of that name as the host lists it (undefined when absent). */
async function listed(
  server: ServerProcess,
  key: string,
  space: string,
  name: string,
): Promise<ListedDocument | undefined> {
  const page = await call(server, key, `/rag/${space}/documents`);
  assert.equal(page.status, 200, JSON.stringify(page.body));
  return (page.body.documentos as ListedDocument[]).find((d) => d.nombre === name);
}

async function waitReady(server: ServerProcess, key: string, space: string, name: string): Promise<ListedDocument> {
  const until = Date.now() + 60_000;
  for (;;) {
    const doc = await listed(server, key, space, name);
    if (doc?.estado === 'listo' || doc?.estado === 'fallido') return doc;
    if (Date.now() > until) throw new Error(`${name} not indexed: ${JSON.stringify(doc)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('cerebro serve and cerebro admin on PostgreSQL + Redis: shared, limited once, kept across restarts', {
  skip,
  timeout: 240_000,
}, async (t) => {
  const db = await pgTesting.createTestDatabase(1);
  const folders = await mkdtemp(join(tmpdir(), 'cerebro-pg-e2e-'));
  const servers: ServerProcess[] = [];
  t.after(async () => {
    for (const server of servers) if (server.child.exitCode === null) await server.stop();
    const roles = await db.pool
      .query<{ role: string }>('SELECT role FROM cerebro_plugin_roles')
      .catch(() => ({ rows: [] as { role: string }[] }));
    await db.drop();
    // Plugin roles belong to the server, not to the database: they go once their database is gone.
    const admin = await createPgPool(pgTesting.TEST_SERVER_URL, { max: 1 });
    for (const { role } of roles.rows) await admin.query(`DROP ROLE IF EXISTS "${role}"`);
    await admin.end();
    await rm(folders, { recursive: true, force: true });
  });
  const env = {
    CEREBRO_DATABASE_URL: db.url,
    CEREBRO_REDIS_URL: redisTesting.TEST_REDIS_URL,
    CEREBRO_COUNTER_FLUSH_MS: '200',
  };
  const start = async (folder: string, args: string[] = []) => {
    const server = await startServer(join(folders, folder), env, { args });
    servers.push(server);
    return server;
  };
  const admin = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [CLI, 'admin', ...args, '--json'], {
      env: { ...process.env, ...env, CEREBRO_DATA_DIR: join(folders, 'operador') },
    });
    return JSON.parse(stdout) as Record<string, string>;
  };

  // Two hosts start together on the empty database: one migrates and sets up the first run, the other waits for it.
  let [a, b] = await Promise.all([start('a'), start('b', ['--rol', 'api'])]);
  const firstRuns = [a, b].filter((s) => s.banner.includes('Primera ejecución'));
  assert.equal(firstRuns.length, 1, 'the first run is set up once');
  const owners = await db.pool.query<{ n: number }>('SELECT count(*) AS n FROM owners');
  assert.equal(owners.rows[0]?.n, 1, 'one demo owner');

  // The operator works on the same database from another machine's folder.
  const operator = await admin('operator', 'create', '--name', 'ops');
  const owner = await admin('owner', 'create', '--name', 'Tienda', '--credits', '100');
  const space = `pg-${Date.now().toString(36)}`;
  await admin('space', 'create', '--id', space, '--owner', owner.id, '--modules', 'api,marca,ventas,fuentes,landing');
  const key = (await admin('key', 'create', '--owner', owner.id, '--name', 'web')).token as string;
  const limited = (await admin('key', 'create', '--owner', owner.id, '--name', 'limitada', '--limit', '3'))
    .token as string;

  // Every first-party plugin loads on PostgreSQL, in its own schema.
  const health = await call(a, operator.token, '/health');
  const states = Object.fromEntries(health.body.plugins.map((p: { id: string; estado: string }) => [p.id, p.estado]));
  for (const id of ['marca', 'ventas', 'fuentes', 'landing', 'transcripcion'])
    assert.equal(states[id], 'activo', `${id}: ${JSON.stringify(health.body.plugins)}`);
  const schemas = await db.pool.query<{ nspname: string }>(
    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'plugin_%' ORDER BY nspname",
  );
  assert.deepEqual(
    schemas.rows.map((r) => r.nspname),
    ['plugin_fuentes', 'plugin_landing', 'plugin_marca', 'plugin_ventas'],
  );
  const marca = await call(b, key, `/mod/marca/${space}/config`);
  assert.equal(marca.status, 200, JSON.stringify(marca.body));

  // A document uploaded to the indexing host (originals stay in its data folder until CEREBRO_ARCHIVOS) is seen
  // `listo` by the api host, and answers from both.
  const form = new FormData();
  form.append('archivos', new Blob([GUIDE_MD], { type: 'text/markdown' }), 'guia.md');
  assert.equal((await call(a, key, `/rag/${space}/load_documents`, { method: 'POST', body: form })).status, 202);
  assert.equal((await waitReady(b, key, space, 'guia.md')).estado, 'listo');
  for (const server of [a, b]) {
    const answer = await ask(server, key, space, '¿Cómo actualizo el sistema?');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.match(answer.body.respuesta, /apt update/);
    assert.equal(answer.body.fuentes[0].documento, 'guia.md');
  }

  // The limited key gets its 3 calls a minute across both hosts, not 3 per host.
  const second = new Date().getUTCSeconds();
  if (second > 50) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
  const statuses: number[] = [];
  for (const server of [a, b, a, b]) statuses.push((await call(server, limited, `/rag/${space}/documents`)).status);
  assert.deepEqual(statuses, [200, 200, 200, 429]);

  // A restarted host keeps everything: the key, the document, the answer.
  await a.stop();
  a = await start('a');
  assert.ok(!a.banner.includes('Primera ejecución'));
  assert.equal((await listed(a, key, space, 'guia.md'))?.estado, 'listo');
  assert.match((await ask(a, key, space, '¿Cómo actualizo el sistema?')).body.respuesta, /apt update/);
  assert.equal((await call(a, limited, `/rag/${space}/documents`)).status, 429, 'the window outlives the host');

  // No host opened a SQLite file: neither the host's database nor a plugin's.
  for (const folder of ['a', 'b', 'operador']) {
    assert.equal(existsSync(join(folders, folder, 'cerebro.db')), false, folder);
    assert.equal(existsSync(join(folders, folder, 'plugins', 'marca.db')), false, folder);
  }
  // The passages are in the database the hosts share.
  const passages = await db.pool.query<{ n: number }>('SELECT count(*) AS n FROM cerebro_passages WHERE space = $1', [
    space,
  ]);
  assert.ok((passages.rows[0]?.n ?? 0) > 0, 'the passages are in PostgreSQL');
});

// The first start killed with SIGKILL at every point of its setup (and at random instants), on the backend of the
// run: the next start always ends with the whole demo (operator credential, owner with credits, space, key, Studio
// email and password) and its credentials in primer-arranque.txt, working through the real HTTP server. Never a
// database holding credentials nobody was given. Several processes starting together on one database set it up once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scratchBackend } from '@cerebro/host/test-kit';
import { call, json } from './support/bearer-call.js';
import { onPostgres } from './support/backend.js';
import { backendEnvOf, startServer, type ServerProcess } from './support/server-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'host/dist/cli/main.js');
const { FIRST_RUN_POINTS } = (await import(pathToFileURL(join(ROOT, 'host/dist/bootstrap/first-run.js')).href)) as {
  FIRST_RUN_POINTS: readonly string[];
};
/** One plugin is enough for the demo's module check, and keeps each start short. */
const ENV = { CEREBRO_PLUGINS_ALLOW: 'marca' };
const FILE = 'primer-arranque.txt';

/** A `cerebro serve` that stops inside its first run, once past `point`, holding whatever it holds there. */
async function startPaused(
  dataDir: string,
  point: string,
  env: Record<string, string> = {},
): Promise<{ kill(): Promise<void> }> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      CEREBRO_DATA_DIR: dataDir,
      CEREBRO_PORT: '0',
      CEREBRO_LOG_LEVEL: 'warn',
      ...(await backendEnvOf(dataDir, env)),
      ...ENV,
      ...env,
      CEREBRO_TEST_FIRST_RUN_PAUSE: point,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`never paused at ${point}: ${stderr}`));
    }, 60_000);
    child.stderr!.on('data', (d) => {
      stderr += d;
      if (stderr.includes(`pausa del primer arranque: ${point}\n`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`exited before pausing at ${point}: ${stderr}`)));
  });
  return {
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The credentials primer-arranque.txt gives the operator. */
interface Credentials {
  key: string;
  operator: string;
  email: string;
  clave: string;
}

async function credentialsIn(dataDir: string): Promise<Credentials> {
  const file = join(dataDir, FILE);
  assert.equal((await stat(file)).mode & 0o777, 0o600, 'readable by the operator only');
  const text = await readFile(file, 'utf8');
  const found = {
    key: /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(text)?.[0],
    operator: /cra_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(text)?.[0],
    email: /Correo: (\S+)/.exec(text)?.[1],
    clave: /Contraseña: (\S+)/.exec(text)?.[1],
  };
  assert.ok(found.key && found.operator && found.email && found.clave, `incomplete ${FILE}:\n${text}`);
  return found as Credentials;
}

/** Everything the file names works through the server, and the database holds the whole demo, once. */
async function assertCompleteDemo(server: ServerProcess, creds: Credentials, context: string): Promise<void> {
  assert.equal((await call(server, creds.key, '/companies')).status, 200, context);
  const config = await call(server, creds.key, '/mod/marca/demo/config');
  assert.equal(config.status, 200, `${context}: ${JSON.stringify(config.body)}`);
  const owners = await call(server, creds.operator, '/admin/propietarios');
  assert.equal(owners.status, 200, context);
  assert.equal(owners.body.total, 1, `${context}: one owner, ${JSON.stringify(owners.body)}`);
  const owner = owners.body.propietarios[0];
  assert.equal(owner.email, creds.email, context);
  assert.equal(owner.cuenta?.creditos, 1000, `${context}: the demo's credits`);
  const spaces = await call(server, creds.operator, '/admin/espacios');
  assert.equal(spaces.body.total, 1, context);
  assert.equal(spaces.body.espacios[0].id, 'demo', context);
  assert.equal(spaces.body.espacios[0].propietario, owner.id, context);
  assert.ok(spaces.body.espacios[0].modulos.includes('api') && spaces.body.espacios[0].modulos.includes('marca'));
  const keys = await call(server, creds.operator, `/admin/propietarios/${owner.id}/claves`);
  assert.equal(keys.body.total, 1, `${context}: one key, ${JSON.stringify(keys.body)}`);
  const signIn = await fetch(`${server.url}/api/sesion`, json('POST', { email: creds.email, clave: creds.clave }));
  assert.equal(signIn.status, 201, `${context}: Studio sign-in ${await signIn.text()}`);
}

/** Servers started together; when one fails to start, those that did are stopped before the error is thrown. */
async function startedTogether(starts: Promise<ServerProcess>[]): Promise<ServerProcess[]> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s) => s.status === 'rejected');
  if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<ServerProcess>).value);
  for (const s of settled) if (s.status === 'fulfilled') await s.value.stop();
  throw failed.reason;
}

test('a first start killed at any point of its setup: the next start has the whole demo and its credentials', {
  timeout: 600_000,
}, async (t) => {
  const folders = await mkdtemp(join(tmpdir(), 'cerebro-first-run-crash-'));
  t.after(() => rm(folders, { recursive: true, force: true }));
  for (const point of FIRST_RUN_POINTS) {
    const dataDir = join(folders, point);
    await (await startPaused(dataDir, point)).kill();
    const server = await startServer(dataDir, ENV);
    try {
      // Until the commit nothing was kept: the next start sets the demo up (again). After it, the file is there.
      assert.equal(server.banner.includes('Primera ejecución'), point !== 'confirmado', `${point}: ${server.banner}`);
      await assertCompleteDemo(server, await credentialsIn(dataDir), `killed after ${point}`);
    } finally {
      await server.stop();
    }
    // A third start is no first run and leaves the file as it is.
    const again = await startServer(dataDir, ENV);
    assert.doesNotMatch(again.banner, /Primera ejecución/);
    await again.stop();
  }
});

test('a first start killed at random instants, several times over: the start after ends with the whole demo', {
  timeout: 300_000,
}, async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-random-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const backend = await backendEnvOf(dataDir, {});
  for (let round = 0; round < 4; round++) {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: { ...process.env, CEREBRO_DATA_DIR: dataDir, CEREBRO_PORT: '0', ...backend, ...ENV },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Between the start of the process and well past a first run's setup on this machine.
    await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 2500)));
    child.kill('SIGKILL');
    await exited;
  }
  const server = await startServer(dataDir, ENV);
  try {
    await assertCompleteDemo(server, await credentialsIn(dataDir), 'after random kills');
  } finally {
    await server.stop();
  }
});

test('two processes starting at once on one data folder (SQLite) set the demo up once; one killed mid-way leaves it to the other', {
  skip: onPostgres ? 'solo SQLite: el caso de PostgreSQL es la prueba siguiente' : false,
  timeout: 120_000,
}, async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-shared-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  // The first holds the database's write lock half-way through; the second waits for it at its own first run.
  const paused = await startPaused(dataDir, 'clave');
  const second = startServer(dataDir, ENV, { args: ['--rol', 'api'] });
  second.catch(() => undefined); // awaited below, after the kill
  await new Promise((r) => setTimeout(r, 500));
  await paused.kill();
  const server = await second;
  try {
    assert.match(server.banner, /Primera ejecución/);
    await assertCompleteDemo(server, await credentialsIn(dataDir), 'the second process');
  } finally {
    await server.stop();
  }
  // Two at once, neither killed: one sets it up, the other finds it done. The folder is migrated first: processes
  // opening one brand-new SQLite file together are covered by migrator.test.ts and database.test.ts.
  const other = await mkdtemp(join(tmpdir(), 'cerebro-first-run-shared-'));
  t.after(() => rm(other, { recursive: true, force: true }));
  await (await startServer(other, { ...ENV, CEREBRO_BOOTSTRAP_DEMO: 'false' })).stop();
  const both = await startedTogether([startServer(other, ENV), startServer(other, ENV, { args: ['--rol', 'api'] })]);
  try {
    assert.equal(both.filter((s) => s.banner.includes('Primera ejecución')).length, 1);
    await assertCompleteDemo(both[1]!, await credentialsIn(other), 'two at once');
  } finally {
    for (const s of both) await s.stop();
  }
});

test('hosts with their own folders on one PostgreSQL database: the one killed mid-way leaves the first run to the other', {
  skip: onPostgres ? false : 'solo PostgreSQL (CEREBRO_TEST_BACKEND=postgres)',
  timeout: 180_000,
}, async (t) => {
  const backend = await scratchBackend('postgres', { empty: true });
  const folders = await mkdtemp(join(tmpdir(), 'cerebro-first-run-pg-'));
  t.after(async () => {
    await backend.close();
    await rm(folders, { recursive: true, force: true });
  });
  const [a, b] = [join(folders, 'a'), join(folders, 'b')];
  // A holds the lock of the hosts' first start (and its open transaction) with its file written, before the commit;
  // B waits for the lock.
  const paused = await startPaused(a, 'archivo', backend.env);
  const second = startServer(b, { ...ENV, ...backend.env });
  second.catch(() => undefined); // awaited below, after the kill
  await new Promise((r) => setTimeout(r, 500));
  await paused.kill();
  const hostB = await second;
  const hostA = await startServer(a, { ...ENV, ...backend.env });
  try {
    assert.match(hostB.banner, /Primera ejecución/);
    assert.doesNotMatch(hostA.banner, /Primera ejecución/);
    // A's file names credentials its rolled-back transaction never kept: A says so at every start, and they fail.
    assert.ok(hostA.banner.includes(`Aviso: ${join(a, FILE)} nombra credenciales que esta base de datos no tiene`));
    const unsaved = await credentialsIn(a);
    assert.equal((await call(hostA, unsaved.key, '/companies')).status, 401);
    assert.equal((await call(hostA, unsaved.operator, '/admin/propietarios')).status, 401);
    assert.doesNotMatch(hostB.banner, /Aviso:/);
    const creds = await credentialsIn(b);
    await assertCompleteDemo(hostB, creds, 'host B');
    await assertCompleteDemo(hostA, creds, 'host A, same database');
  } finally {
    await hostA.stop();
    await hostB.stop();
  }
  // Two more hosts at once on another empty database, neither killed: one sets it up, once.
  const fresh = await scratchBackend('postgres', { empty: true });
  t.after(() => fresh.close());
  const [c, d] = [join(folders, 'c'), join(folders, 'd')];
  const both = await startedTogether([
    startServer(c, { ...ENV, ...fresh.env }),
    startServer(d, { ...ENV, ...fresh.env }),
  ]);
  try {
    const firstRuns = both.filter((s) => s.banner.includes('Primera ejecución'));
    assert.equal(firstRuns.length, 1, 'set up once');
    const creds = await credentialsIn(firstRuns[0] === both[0] ? c : d);
    for (const s of both) await assertCompleteDemo(s, creds, 'either host');
  } finally {
    for (const s of both) await s.stop();
  }
});

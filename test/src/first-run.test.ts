import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../host/dist/cli/main.js', import.meta.url));

/** Starts `cerebro serve` and resolves with what it printed once the banner (first run or not) is complete. */
function serve(dataDir: string): Promise<{ child: ChildProcess; banner: string }> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, CEREBRO_DATA_DIR: dataDir, CEREBRO_PORT: '0', CEREBRO_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      if (/openapi\.json/.test(stderr)) resolve({ child, banner: stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}\n${stdout}`)));
  }).then((r) => Object.assign(r as { child: ChildProcess; banner: string }, { logs: () => stdout }));
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal as never)));
    child.kill('SIGTERM');
  });

test('first start on an empty database writes a working key and a curl example to a 0600 file, not to logs; later starts print no key', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));

  const first = await serve(dataDir);
  // stderr is a pipe here, as under systemd or Docker: the secrets go only to the operator's file, never to it.
  assert.doesNotMatch(first.banner, /cr[ab]_[0-9a-f]{16}\./, 'no credential on a stderr that is not a terminal');
  const file = join(dataDir, 'primer-arranque.txt');
  assert.match(first.banner, new RegExp(file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
  assert.equal((await stat(file)).mode & 0o777, 0o600, 'readable by the operator only');
  const secrets = await readFile(file, 'utf8');
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)?.[0];
  const url = /(http:\/\/127\.0\.0\.1:\d+)\/api\/mod\/marca\/demo\/config/.exec(secrets)?.[1];
  assert.ok(key && url, `file lacks key or url:\n${secrets}`);
  assert.match(secrets, /cra_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/, 'the operator credential too');
  assert.match(secrets, new RegExp(`curl -H "Authorization: Bearer ${key!.replace('.', '\\.')}"`));

  const res = await fetch(`${url}/api/mod/marca/demo/config`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { name: string }).name, 'demo');
  const anonymous = await fetch(`${url}/api/mod/marca/demo/config`);
  assert.equal(anonymous.status, 401);

  // The demo owner can sign in to Studio with what the file says, at the address it names.
  assert.ok(secrets.includes(`${url}/studio/`), 'the file names Studio');
  const email = /Correo: (\S+)/.exec(secrets)?.[1];
  const clave = /Contraseña: (\S+)/.exec(secrets)?.[1];
  assert.ok(email && clave, `file lacks the Studio sign-in:\n${secrets}`);
  const signIn = await fetch(`${url}/api/sesion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, clave }),
  });
  assert.equal(signIn.status, 201, await signIn.clone().text());
  assert.match(signIn.headers.get('set-cookie') ?? '', /cerebro_sesion=crs_/);

  const exit = await stop(first.child);
  assert.equal(exit, 0, (first as unknown as { logs: () => string }).logs());
  const logs = (first as unknown as { logs: () => string }).logs();
  assert.ok(!logs.includes(key!.split('.')[1]!), 'the key secret must never reach the logs');
  assert.ok(!logs.includes(clave!) && !first.banner.includes(clave!), 'nor the Studio password');

  const second = await serve(dataDir);
  assert.doesNotMatch(second.banner, /crb_/);
  assert.equal(await stop(second.child), 0);
});

test('a stop that comes while the first start sets up the demo waits for it: the next start has working credentials', async (t) => {
  // Anything that waits for /api/ready and then stops the service (a supervisor's probe, the executable's bench) can
  // land inside the first-run setup, which runs after the server listens.
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, CEREBRO_DATA_DIR: dataDir, CEREBRO_PORT: String(port), CEREBRO_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGTERM');
  assert.equal(await exited, 0, output);
  assert.doesNotMatch(output, /not open|"level":(50|60)/);

  const again = await serve(dataDir);
  t.after(() => stop(again.child));
  const file = await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8');
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(file)![0];
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(again.banner)![0];
  const companies = await fetch(`${url}/api/companies`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(companies.status, 200);
});

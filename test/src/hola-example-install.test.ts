// The third-party story end to end: the sdk and examples/hola-plugin are packed with `npm pack`, the example is
// installed from its .tgz with `cerebro plugins add` (no npm on the PATH, no registry), and `cerebro serve` runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { startServer } from './support/server-process.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'host/dist/cli/main.js');

async function npmPack(dir: string, destination: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination, join(ROOT, dir)], { cwd: ROOT });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(destination, packed!.filename);
}

async function entriesOf(tgz: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.t({ file: tgz, onReadEntry: (entry) => { entries.push(entry.path); } });
  return entries;
}

/**
 * Type-checks the example in a project of its own whose only `@cerebro/sdk` is the packed one (its dependencies
 * linked from this checkout, as npm would install them): the example needs nothing the tarball does not ship.
 */
async function typecheckAgainstPackedSdk(tmp: string, sdkTgz: string): Promise<void> {
  const project = join(tmp, 'proyecto');
  const sdkDir = join(project, 'node_modules/@cerebro/sdk');
  await mkdir(sdkDir, { recursive: true });
  await tar.x({ file: sdkTgz, cwd: sdkDir, strip: 1 });
  for (const dep of ['tsyringe', 'reflect-metadata', 'json-schema-to-ts', 'ts-algebra', '@types/node', 'undici-types']) {
    await mkdir(join(project, 'node_modules', dep, '..'), { recursive: true });
    await symlink(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
  }
  await cp(join(ROOT, 'examples/hola-plugin/src'), join(project, 'src'), { recursive: true });
  await cp(join(ROOT, 'examples/hola-plugin/tsconfig.json'), join(project, 'tsconfig.json'));
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit', '--composite', 'false']);
}

test('the packed example installs with cerebro plugins add and answers through the pipeline of cerebro serve', async (t) => {
  const tmp = await mkdtemp(join(tmpdir(), 'cerebro-hola-'));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  const [sdkTgz, holaTgz] = await Promise.all([npmPack('sdk', tmp), npmPack('examples/hola-plugin', tmp)]);

  const sdkFiles = await entriesOf(sdkTgz);
  for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js', 'dist/testing/index.d.ts', 'README.md', 'CHANGELOG.md']) {
    assert.ok(sdkFiles.includes(`package/${file}`), `the packed sdk has ${file}`);
  }
  assert.deepEqual(sdkFiles.filter((f) => /\.test\.|\/src\//.test(f)), [], 'no tests or sources in the packed sdk');
  assert.ok(statSync(sdkTgz).size < 1_000_000, 'the sdk tarball is small');
  assert.deepEqual((await entriesOf(holaTgz)).filter((f) => f.endsWith('.js')), ['package/dist/index.js']);
  await typecheckAgainstPackedSdk(tmp, sdkTgz);

  const dataDir = join(tmp, 'data');
  // PATH without npm: the CLI must not need it. Only the example is allowed, so the workspace plugins stay out.
  const env = { CEREBRO_DATA_DIR: dataDir, CEREBRO_PLUGINS_ALLOW: 'hola', CEREBRO_LOG_LEVEL: 'silent', PATH: '/nonexistent' };
  const cli = async (...args: string[]) => (await run(process.execPath, [CLI, ...args], { env })).stdout;
  assert.match(await cli('plugins', 'add', holaTgz), /Instalado hola@1\.0\.0 \(cerebro-plugin-hola\)/);
  assert.match(await cli('plugins', 'list'), /^hola\s+1\.0\.0\s+disponible\s+instalado desde .*cerebro-plugin-hola-1\.0\.0\.tgz$/m);

  const owner = JSON.parse(await cli('admin', 'owner', 'create', '--name', 'Ana', '--credits', '3', '--json', '--crear')) as { id: string };
  await cli('admin', 'space', 'create', '--id', 'tienda', '--owner', owner.id, '--modules', 'api');
  await cli('admin', 'space', 'module', '--id', 'tienda', '--module', 'hola', '--on');
  const key = JSON.parse(await cli('admin', 'key', 'create', '--owner', owner.id, '--name', 'k', '--spaces', 'tienda', '--permiso', 'escribe', '--json')) as { token: string };

  const server = await startServer(dataDir, { CEREBRO_PLUGINS_ALLOW: 'hola', CEREBRO_BOOTSTRAP_DEMO: 'false' });
  t.after(() => server.stop());
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/mod/hola/tienda${path}`, {
      method, headers: { authorization: `Bearer ${key.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  assert.deepEqual(await call('GET', '/saludo'), { status: 200, body: { saludo: 'Hola, tienda' } });
  assert.equal((await call('POST', '/saludos', { texto: 'buenos días' })).status, 201);
  assert.equal((await call('POST', '/saludos', { texto: 'sin saldo' })).status, 402, 'the paid route charged 2 of the 3 credits');
  assert.deepEqual(await call('GET', '/saludos'), { status: 200, body: { saludos: ['buenos días'] } });
});

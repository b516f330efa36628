// The third-party story end to end: the sdk and examples/hola-plugin are packed with `npm pack`, the example is
// installed from its .tgz with `cerebro plugins add` (no npm on the PATH, no registry), and `cerebro serve` runs it.
// And the plugin author's side: the packed sdk, host and example installed in a folder outside the workspace, with
// everything else from the registry, where the example's own tests run with the testing kit.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { authorEnv, brokenHeaders } from './support/author-env.js';
import { npmPack } from './support/npm-pack.js';
import { postgresMissing } from './support/postgres-available.js';
import { backendEnvOf, startServer } from './support/server-process.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'host/dist/cli/main.js');
const noPostgres = await postgresMissing();

/** The tarball's entries, after checking it holds `expected` (paths inside the package) and no test, source or fixture. */
async function packedFiles(tgz: string, what: string, expected: string[]): Promise<string[]> {
  const files = await entriesOf(tgz);
  for (const file of expected) assert.ok(files.includes(`package/${file}`), `the packed ${what} has ${file}`);
  assert.deepEqual(
    files.filter((f) => /\.test\.|\/src\/|\/testing\//.test(f) && !f.startsWith('package/dist/testing/')),
    [],
    `no tests, sources or test fixtures in the packed ${what}`,
  );
  return files;
}

async function entriesOf(tgz: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.t({
    file: tgz,
    onReadEntry: (entry) => {
      entries.push(entry.path);
    },
  });
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
  for (const dep of [
    'tsyringe',
    'reflect-metadata',
    'json-schema-to-ts',
    'ts-algebra',
    '@types/node',
    'undici-types',
  ]) {
    await mkdir(join(project, 'node_modules', dep, '..'), { recursive: true });
    await symlink(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
  }
  await cp(join(ROOT, 'examples/hola-plugin/src'), join(project, 'src'), { recursive: true });
  await cp(join(ROOT, 'examples/hola-plugin/tsconfig.json'), join(project, 'tsconfig.json'));
  await run(process.execPath, [
    join(ROOT, 'node_modules/typescript/bin/tsc'),
    '-p',
    project,
    '--noEmit',
    '--composite',
    'false',
  ]);
}

test('the packed example installs with cerebro plugins add and answers through the pipeline of cerebro serve', async (t) => {
  const tmp = await mkdtemp(join(tmpdir(), 'cerebro-hola-'));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  const [sdkTgz, holaTgz] = await Promise.all([npmPack('sdk', tmp), npmPack('examples/hola-plugin', tmp)]);

  // The sdk's own dist/testing is its public testing kit, not a fixture.
  await packedFiles(sdkTgz, 'sdk', [
    'dist/index.js',
    'dist/index.d.ts',
    'dist/testing/index.js',
    'dist/testing/index.d.ts',
    'README.md',
    'CHANGELOG.md',
  ]);
  assert.ok(statSync(sdkTgz).size < 1_000_000, 'the sdk tarball is small');
  assert.deepEqual(
    (await entriesOf(holaTgz)).filter((f) => f.endsWith('.js')),
    ['package/dist/index.js'],
  );
  await typecheckAgainstPackedSdk(tmp, sdkTgz);

  const dataDir = join(tmp, 'data');
  // PATH without npm: the CLI must not need it. Only the example is allowed, so the workspace plugins stay out.
  const env = {
    CEREBRO_DATA_DIR: dataDir,
    ...(await backendEnvOf(dataDir)),
    CEREBRO_PLUGINS_ALLOW: 'hola',
    CEREBRO_LOG_LEVEL: 'silent',
    PATH: '/nonexistent',
  };
  const cli = async (...args: string[]) => (await run(process.execPath, [CLI, ...args], { env })).stdout;
  assert.match(await cli('plugins', 'add', holaTgz), /Instalado hola@1\.0\.0 \(cerebro-plugin-hola\)/);
  assert.match(
    await cli('plugins', 'list'),
    /^hola\s+1\.0\.0\s+disponible\s+instalado desde .*cerebro-plugin-hola-1\.0\.0\.tgz$/m,
  );

  const owner = JSON.parse(
    await cli('admin', 'owner', 'create', '--name', 'Ana', '--credits', '3', '--json', '--crear'),
  ) as { id: string };
  await cli('admin', 'space', 'create', '--id', 'tienda', '--owner', owner.id, '--modules', 'api');
  await cli('admin', 'space', 'module', '--id', 'tienda', '--module', 'hola', '--on');
  const key = JSON.parse(
    await cli(
      'admin',
      'key',
      'create',
      '--owner',
      owner.id,
      '--name',
      'k',
      '--spaces',
      'tienda',
      '--permiso',
      'escribe',
      '--json',
    ),
  ) as { token: string };

  const server = await startServer(dataDir, { CEREBRO_PLUGINS_ALLOW: 'hola', CEREBRO_BOOTSTRAP_DEMO: 'false' });
  t.after(() => server.stop());
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/mod/hola/tienda${path}`, {
      method,
      headers: { authorization: `Bearer ${key.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  assert.deepEqual(await call('GET', '/saludo'), { status: 200, body: { saludo: 'Hola, tienda' } });
  assert.equal((await call('POST', '/saludos', { texto: 'buenos días' })).status, 201);
  assert.equal(
    (await call('POST', '/saludos', { texto: 'sin saldo' })).status,
    402,
    'the paid route charged 2 of the 3 credits',
  );
  assert.deepEqual(await call('GET', '/saludos'), { status: 200, body: { saludos: ['buenos días'] } });
});

/** Bytes on disk under `dir` (files and links, as `du` counts apparent sizes), without following links. */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    total += entry.isDirectory() ? await treeBytes(full) : lstatSync(full).size;
  }
  return total;
}

test("outside the workspace, with only the packed sdk, host and example and the registry, the example's own tests pass", {
  skip: brokenHeaders,
  timeout: 900_000,
}, async (t) => {
  const tmp = await mkdtemp(join(tmpdir(), 'cerebro-autor-'));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  const [sdkTgz, hostTgz] = await Promise.all([npmPack('sdk', tmp), npmPack('host', tmp)]);

  await packedFiles(hostTgz, 'host', [
    'dist/index.js',
    'dist/index.d.ts',
    'dist/cli/main.js',
    'dist/cerebro/extract/worker.js',
    'dist/cerebro/extract/worker-entry.cjs',
    'dist/plugins/install/check-package-child.js',
    'README.md',
  ]);
  const hostPkg = JSON.parse(await readFile(join(ROOT, 'host/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional: boolean }>;
  };
  assert.ok(
    !Object.values(hostPkg.dependencies).some((v) => /^(file|link|workspace):/.test(v)),
    'no workspace-only dependency',
  );

  // The author's checkout of the example: its sources and manifest, the two Cerebro packages from their tarballs
  // (as from the registry once published; `overrides` keeps the host's own sdk dependency on the same tarball).
  const project = join(tmp, 'cerebro-plugin-hola');
  await mkdir(project);
  await cp(join(ROOT, 'examples/hola-plugin/src'), join(project, 'src'), { recursive: true });
  await cp(join(ROOT, 'examples/hola-plugin/tsconfig.json'), join(project, 'tsconfig.json'));
  const pkg = JSON.parse(await readFile(join(ROOT, 'examples/hola-plugin/package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
    overrides?: unknown;
  };
  pkg.devDependencies['@cerebro/sdk'] = `file:${sdkTgz}`;
  pkg.devDependencies['@cerebro/host'] = `file:${hostTgz}`;
  pkg.overrides = { '@cerebro/sdk': '$@cerebro/sdk' };
  await writeFile(join(project, 'package.json'), JSON.stringify(pkg, null, 2));

  const env = authorEnv();
  await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
  const modules = join(project, 'node_modules');
  for (const name of ['@cerebro/sdk', '@cerebro/host']) {
    assert.ok(!lstatSync(join(modules, name)).isSymbolicLink(), `${name} is installed, not linked to the workspace`);
  }
  // The optional peers (model runtime, Office readers, language identifier) stay out of an author's project.
  for (const name of Object.keys(hostPkg.peerDependenciesMeta))
    assert.ok(!existsSync(join(modules, name)), `${name} is not installed`);

  const { stdout } = await run('npm', ['test'], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
  assert.match(stdout, /^# pass [1-9]\d*$/m, stdout);
  assert.match(stdout, /^# fail 0$/m, stdout);
  await t.test(
    "the example's own tests pass on PostgreSQL too (npm run test:postgres)",
    { skip: noPostgres },
    async () => {
      const pg = await run('npm', ['run', 'test:postgres'], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
      assert.match(pg.stdout, /^# pass [1-9]\d*$/m, pg.stdout);
      assert.match(pg.stdout, /^# fail 0$/m, pg.stdout);
    },
  );

  // The host's published types hold up under full checking (skipLibCheck off) without its optional peers.
  const strict = join(project, 'tipos-del-host');
  await mkdir(strict);
  await writeFile(
    join(strict, 'uso.ts'),
    "import { startHost, type RunningHost } from '@cerebro/host';\nexport const start: () => Promise<RunningHost> = () => startHost({});\n",
  );
  await writeFile(
    join(strict, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      include: ['uso.ts'],
    }),
  );
  await run(process.execPath, [join(modules, 'typescript/bin/tsc'), '-p', strict], { cwd: project, env });

  // Measured: the whole project, and without the author's own tool chain (TypeScript and Node's types).
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const total = await treeBytes(modules);
  const toolchain = (await treeBytes(join(modules, 'typescript'))) + (await treeBytes(join(modules, '@types')));
  const sqlite = await treeBytes(join(modules, 'better-sqlite3'));
  t.diagnostic(
    `example plugin project node_modules: ${mb(total)} (${(await readdir(modules)).length} entries); without typescript and @types: ${mb(total - toolchain)}; better-sqlite3 alone ${mb(sqlite)}`,
  );
  assert.ok(total < 100 * 1024 * 1024, `node_modules is ${mb(total)}`);
});

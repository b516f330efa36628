import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import * as tar from 'tar';
import { installPlugin, removePlugin } from './install-plugin.js';
import { readInstalled } from './installed-records.js';
import { hostSdkDir, installedPackagesDir } from './plugin-folder.js';

const PLUGIN_SOURCE = `import { definePlugin } from '@cerebro/sdk';
export default definePlugin({
  manifest: { id: 'saludos', version: '2.1.0', sdk: '^1.0.0', title: 'Saludos',
    routes: [{ id: 'hola', method: 'GET', path: '/hola', permission: 'lee', summary: 'Saluda' }] },
  setup: () => ({ handlers: { hola: () => ({ hola: true }) } }),
});
`;

async function workspace(t: TestContext): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-install-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  return root;
}

/** A plugin project folder: package.json, entry, and optionally a stray copy of the sdk in its node_modules. */
async function pluginFolder(
  root: string,
  source = PLUGIN_SOURCE,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const dir = join(root, 'proyecto');
  await mkdir(join(dir, 'node_modules', '@cerebro', 'sdk'), { recursive: true });
  await writeFile(
    join(dir, 'node_modules', '@cerebro', 'sdk', 'package.json'),
    '{"name":"@cerebro/sdk","version":"0.0.1"}',
  );
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'cerebro-plugin-saludos',
      version: '2.1.0',
      type: 'module',
      cerebro: { id: 'saludos', plugin: 'index.js' },
      peerDependencies: { '@cerebro/sdk': '^1.0.0' },
      ...extra,
    }),
  );
  await writeFile(join(dir, 'index.js'), source);
  return dir;
}

async function packTgz(root: string, folder: string): Promise<string> {
  const file = join(root, 'saludos-2.1.0.tgz');
  await tar.c({ gzip: true, file, cwd: folder, prefix: 'package', filter: (path) => !path.includes('node_modules') }, [
    'package.json',
    'index.js',
  ]);
  return file;
}

const options = (dataDir: string, spec: string) => ({
  spec,
  dataDir,
  registry: 'http://127.0.0.1:9',
  otherPluginIds: new Set<string>(),
});

test('a plugin folder installs into the data directory, resolves the host sdk, and is removed by id', async (t) => {
  const root = await workspace(t);
  const dataDir = join(root, 'data');
  const record = await installPlugin(options(dataDir, await pluginFolder(root)));
  assert.deepEqual([record.id, record.version, record.packageName], ['saludos', '2.1.0', 'cerebro-plugin-saludos']);
  const installed = join(installedPackagesDir(dataDir), 'cerebro-plugin-saludos');
  assert.ok(existsSync(join(installed, 'index.js')));
  assert.ok(
    !existsSync(join(installed, 'node_modules')),
    "the folder's own node_modules (and its sdk copy) stay behind",
  );
  assert.equal(realpathSync(join(installedPackagesDir(dataDir), '@cerebro', 'sdk')), realpathSync(hostSdkDir()));
  assert.deepEqual(
    readdirSync(installedPackagesDir(dataDir)).filter((n) => n.startsWith('.')),
    [],
    'no staging folder left',
  );
  assert.deepEqual(
    readInstalled(dataDir).map((r) => r.id),
    ['saludos'],
  );

  removePlugin(dataDir, 'saludos');
  assert.ok(!existsSync(installed));
  assert.deepEqual(readInstalled(dataDir), []);
  assert.throws(() => removePlugin(dataDir, 'saludos'), /no hay ningún plugin "saludos"/);
});

test('a packed .tgz installs with its sha512 integrity recorded', async (t) => {
  const root = await workspace(t);
  const tgz = await packTgz(root, await pluginFolder(root));
  const record = await installPlugin(options(join(root, 'data'), tgz));
  const expected = `sha512-${createHash('sha512').update(readFileSync(tgz)).digest('base64')}`;
  assert.equal(record.integrity, expected);
});

test('a package that does not import, lacks a dependency, or clashes with another plugin is refused and leaves nothing', async (t) => {
  const root = await workspace(t);
  const dataDir = join(root, 'data');
  await assert.rejects(
    installPlugin(options(dataDir, await pluginFolder(root, 'export default { manifest: {'))),
    /no se pudo importar/,
  );
  await rm(join(root, 'proyecto'), { recursive: true });
  await assert.rejects(
    installPlugin(options(dataDir, await pluginFolder(root, PLUGIN_SOURCE, { dependencies: { leftpad: '^1.0.0' } }))),
    /depende de leftpad/,
  );
  await rm(join(root, 'proyecto'), { recursive: true });
  const sdkTooNew = PLUGIN_SOURCE.replace("sdk: '^1.0.0'", "sdk: '^9.0.0'");
  await assert.rejects(installPlugin(options(dataDir, await pluginFolder(root, sdkTooNew))), /PLUGIN_SDK_RANGE/);
  await rm(join(root, 'proyecto'), { recursive: true });
  await assert.rejects(
    installPlugin({ ...options(dataDir, await pluginFolder(root)), otherPluginIds: new Set(['saludos']) }),
    /ya hay un plugin "saludos"/,
  );
  assert.deepEqual(
    readdirSync(installedPackagesDir(dataDir)).filter((n) => n !== '@cerebro'),
    [],
  );
  assert.deepEqual(readInstalled(dataDir), []);
});

test('a name@range comes from the registry metadata, and a tarball whose integrity differs is refused', async (t) => {
  const root = await workspace(t);
  const tgz = readFileSync(await packTgz(root, await pluginFolder(root)));
  let integrity = `sha512-${createHash('sha512').update(tgz).digest('base64')}`;
  const server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === '/cerebro-plugin-saludos') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          'dist-tags': { latest: '2.1.0' },
          versions: {
            '1.0.0': { dist: { tarball: `${base}/viejo.tgz`, integrity: 'sha512-AAAA' } },
            '2.1.0': { dist: { tarball: `${base}/saludos.tgz`, integrity } },
            '3.0.0': { dist: { tarball: `${base}/nuevo.tgz`, integrity: 'sha512-AAAA' } },
          },
        }),
      );
    } else if (req.url === '/saludos.tgz') res.end(tgz);
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.after(() => server.close());
  const registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dataDir = join(root, 'data');

  const record = await installPlugin({ ...options(dataDir, 'cerebro-plugin-saludos@^2.0.0'), registry });
  assert.equal(record.version, '2.1.0');
  assert.equal(record.integrity, integrity);
  await assert.rejects(
    installPlugin({ ...options(dataDir, 'cerebro-plugin-saludos@^4'), registry }),
    /ninguna versión .* cumple "\^4"/,
  );
  await assert.rejects(installPlugin({ ...options(dataDir, 'no-existe'), registry }), /no existe/);
  integrity = `sha512-${createHash('sha512').update('otra cosa').digest('base64')}`;
  await assert.rejects(
    installPlugin({ ...options(dataDir, 'cerebro-plugin-saludos@latest'), registry }),
    /integridad .* no coincide/,
  );
});

test('a package whose own name would leave the packages folder is refused and touches nothing outside it', async (t) => {
  const root = await workspace(t);
  const dataDir = join(root, 'data');
  const outside = join(dataDir, 'plugins', 'fuera.txt');
  await mkdir(join(dataDir, 'plugins'), { recursive: true });
  await writeFile(outside, 'no tocar');
  for (const name of ['../../plugins', '..', '@scope/../../x']) {
    await rm(join(root, 'proyecto'), { recursive: true, force: true });
    await assert.rejects(
      installPlugin(options(dataDir, await pluginFolder(root, PLUGIN_SOURCE, { name }))),
      /no es un nombre de paquete npm válido/,
      name,
    );
  }
  assert.equal(readFileSync(outside, 'utf8'), 'no tocar');
  assert.deepEqual(readInstalled(dataDir), []);
});

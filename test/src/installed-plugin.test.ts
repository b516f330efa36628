import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost } from '@cerebro/host';

/** Writes a third-party plugin package the way `npm install` would leave it in node_modules. */
async function installHolaPlugin(nodeModules: string): Promise<void> {
  const dir = join(nodeModules, 'cerebro-plugin-hola');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'cerebro-plugin-hola',
      version: '1.0.0',
      type: 'module',
      keywords: ['cerebro-plugin'],
      main: 'index.js',
    }),
  );
  await writeFile(
    join(dir, 'index.js'),
    `export default {
  manifest: { id: 'hola', version: '1.0.0', sdk: '^1.0.0', title: 'Hola',
    routes: [{ id: 'saludo', method: 'GET', path: '/saludo', permission: 'lee', summary: 'Saluda' }] },
  setup: () => ({ handlers: { saludo: (req) => ({ hola: req.space.id }) } }),
};\n`,
  );
}

test('a plugin installed into node_modules is discovered on restart; the deny list keeps it out', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-installed-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const nodeModules = join(root, 'node_modules');
  await installHolaPlugin(nodeModules);
  const base = {
    dataDir: join(root, 'data'),
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    bootstrapDemo: false,
    pluginPaths: [nodeModules],
  };

  const host = await startHost({ config: { ...base, pluginsAllow: ['hola'] } });
  try {
    const owner = await host.admin.createOwner({ name: 'P' });
    await host.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['hola'] });
    const key = (await host.admin.issueKey(owner.id, 'k', [], 'lee')).token;
    const res = await fetch(`${host.url}/api/mod/hola/uno/saludo`, { headers: { authorization: `Bearer ${key}` } });
    assert.deepEqual(await res.json(), { hola: 'uno' });
  } finally {
    await host.close();
  }

  const denied = await startHost({ config: { ...base, pluginsAllow: [], pluginsDeny: ['hola'] } });
  try {
    assert.ok(!denied.plugins.some((p) => p.manifest.id === 'hola'));
  } finally {
    await denied.close();
  }
});

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost } from '@cerebro/host';
import { definePlugin } from '@cerebro/sdk';

async function writePackage(root: string, name: string, id: string, source: string): Promise<void> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name, version: '0.3.0', type: 'module', cerebro: { id, plugin: 'index.js' } }),
  );
  await writeFile(join(dir, 'index.js'), source);
}

test('a plugin whose import fails is fallido with its reason, the service starts, and its enabled module answers 503', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-import-failure-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const extra = join(root, 'extra');
  await writePackage(extra, 'cerebro-plugin-roto', 'roto', 'export default {\n  manifest: { id: "roto", \n'); // syntax error
  await writePackage(
    extra,
    'cerebro-plugin-sin-dep',
    'sindep',
    "import 'paquete-que-no-existe-en-ninguna-parte';\nexport default {};\n",
  );
  const config = {
    dataDir: join(root, 'data'),
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    bootstrapDemo: false,
    pluginPaths: [extra],
    pluginsAllow: ['roto', 'sindep'],
  };
  // A first run with a plugin "ausente" enables it on the space; the second run no longer has that plugin.
  const ausente = definePlugin({
    manifest: { id: 'ausente', version: '1.0.0', sdk: '^1.0.0', title: 'Ausente', routes: [] },
    setup: () => ({ handlers: {} }),
  });
  const first = await startHost({ config, plugins: [ausente] });
  const owner = await first.admin.createOwner({ name: 'P' });
  await first.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['api', 'roto', 'ausente'] });
  const key = (await first.admin.issueKey(owner.id, 'k', [], 'lee')).token;
  await first.close();

  const host = await startHost({ config });
  t.after(() => host.close());
  const operator = (await host.admin.issueOperatorCredential('op')).token;
  const health = (await (
    await fetch(`${host.url}/api/health`, { headers: { authorization: `Bearer ${operator}` } })
  ).json()) as {
    salud: string;
    plugins: { id: string; version: string; estado: string; error?: string }[];
  };
  assert.equal(health.salud, 'degradada');
  const roto = health.plugins.find((p) => p.id === 'roto');
  assert.equal(roto?.estado, 'fallido');
  assert.equal(roto?.version, '0.3.0');
  assert.match(roto?.error ?? '', /PLUGIN_ENTRY_INVALID.*no se pudo importar/);
  assert.match(health.plugins.find((p) => p.id === 'sindep')?.error ?? '', /paquete-que-no-existe-en-ninguna-parte/);

  const get = async (path: string) => {
    const res = await fetch(`${host.url}/api${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as { detail: unknown } };
  };
  const failed = await get('/mod/roto/uno/cualquier/ruta');
  assert.equal(failed.status, 503);
  assert.match(
    String(failed.body.detail),
    /El módulo roto está habilitado en este espacio pero su plugin falló al cargar/,
  );
  const absent = await get('/mod/ausente/uno/algo');
  assert.equal(absent.status, 503);
  assert.match(String(absent.body.detail), /su plugin no está instalado/);
  assert.equal((await get('/mod/sindep/uno/algo')).status, 404, 'a module the space has not enabled stays unknown');
  assert.equal((await get('/mod/roto/otro/algo')).status, 403, 'space access still comes first');
});

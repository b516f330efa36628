import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { discoverPlugins, markShipped } from './discovery.js';

async function pkg(dir: string, json: object): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(json));
}

test('finds workspace plugins and installed packages that declare themselves Cerebro plugins, each once', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-discovery-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await pkg(join(root, 'plugins/alfa'), {
    name: '@cerebro/plugin-alfa',
    cerebro: { id: 'alfa', plugin: './dist/index.js' },
  });
  await pkg(join(root, 'node_modules/@terceros/beta'), {
    name: '@terceros/beta',
    keywords: ['cerebro-plugin'],
    main: 'index.js',
  });
  await pkg(join(root, 'node_modules/gamma'), { name: 'gamma', main: 'index.js' });
  await pkg(join(root, 'node_modules/roto'), { name: 'roto' });
  await writeFile(join(root, 'node_modules/roto/package.json'), '{ no es json');
  await mkdir(join(root, 'node_modules/@cerebro'), { recursive: true });
  await symlink(join(root, 'plugins/alfa'), join(root, 'node_modules/@cerebro/plugin-alfa'));

  const found = discoverPlugins([join(root, 'plugins')], [join(root, 'node_modules'), join(root, 'no-existe')]);
  assert.deepEqual(
    found.map((c) => [c.packageName, c.declaredId, c.entry.slice(root.length)]),
    [
      ['@cerebro/plugin-alfa', 'alfa', '/plugins/alfa/dist/index.js'],
      ['@terceros/beta', undefined, '/node_modules/@terceros/beta/index.js'],
    ],
  );
});

test("only the packages directly in the host's own plugins folder are marked as shipped with it", async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-shipped-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await pkg(join(root, 'host/plugins/propio'), { name: 'propio', cerebro: { id: 'propio', plugin: './i.js' } });
  await pkg(join(root, 'otros/ajeno'), { name: 'ajeno', cerebro: { id: 'ajeno', plugin: './i.js' } });
  await pkg(join(root, 'node_modules/instalado'), {
    name: 'instalado',
    cerebro: { id: 'instalado', plugin: './i.js' },
  });
  // A link to the host's plugin from node_modules (a workspace) is the same package, found once, still shipped.
  await symlink(join(root, 'host/plugins/propio'), join(root, 'node_modules/propio'));
  const found = discoverPlugins([join(root, 'host/plugins'), join(root, 'otros')], [join(root, 'node_modules')]);
  assert.deepEqual(
    markShipped(found, join(root, 'host/plugins')).map((c) => [c.packageName, c.shipped === true]),
    [
      ['ajeno', false],
      ['instalado', false],
      ['propio', true],
    ],
  );
  assert.deepEqual(
    markShipped(found, null).map((c) => c.shipped === true),
    [false, false, false],
    'an installed host (no checkout) ships none',
  );
});

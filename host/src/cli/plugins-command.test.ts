import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCaptured } from './testing/captured-cli.js';

function cli(dataDir: string, args: string[]) {
  return runCaptured(['plugins', ...args], { CEREBRO_DATA_DIR: dataDir, CEREBRO_PLUGINS_ALLOW: 'marca' });
}

test('cerebro plugins: usage, refusals with their reason and exit code 1, and the list', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-plugins-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  assert.equal((await cli(dataDir, [])).code, 0);
  assert.equal((await cli(dataDir, ['instala', 'x'])).code, 2);
  assert.equal((await cli(dataDir, ['add'])).code, 2);
  const missing = await cli(dataDir, ['add', join(dataDir, 'no-existe.tgz')]);
  assert.deepEqual([missing.code, /no existe el archivo/.test(missing.err)], [1, true]);
  const odd = await cli(dataDir, ['add', 'No Es Un Nombre']);
  assert.deepEqual([odd.code, /no es una carpeta, un \.tgz ni un nombre de paquete npm/.test(odd.err)], [1, true]);
  const notInstalled = await cli(dataDir, ['remove', 'marca']);
  assert.deepEqual(
    [notInstalled.code, /no hay ningún plugin "marca" instalado con "npx cerebro plugins add"/.test(notInstalled.err)],
    [1, true],
  );
  const list = await cli(dataDir, ['list']);
  assert.equal(list.code, 0);
  assert.match(list.out, /^marca\s+1\.0\.0\s+disponible\s+@cerebro\/plugin-marca$/m);
});

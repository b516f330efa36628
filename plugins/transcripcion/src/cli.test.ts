import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { writeTinyModel } from './testing/tiny-model.js';

const CLI = fileURLToPath(new URL('./cli.js', import.meta.url));

test('cerebro-transcripcion instalar-modelo installs a local model where the plugin reads it, and refuses a bad one', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-cli-model-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const source = join(dir, 'ggml-tiny.bin');
  writeTinyModel(source);
  const env = {
    ...process.env,
    CEREBRO_DATA_DIR: join(dir, 'data'),
    CEREBRO_TRANSCRIPCION_MODELO: '',
    CEREBRO_WHISPER_MODEL: '',
  };

  const ok = spawnSync(process.execPath, [CLI, 'instalar-modelo', source], { env, encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  const installed = join(dir, 'data', 'plugins', 'transcripcion', 'whisper.bin');
  assert.ok(existsSync(installed));
  assert.match(ok.stdout, /Modelo instalado en .*whisper\.bin/);

  const bad = join(dir, 'roto.bin');
  writeFileSync(bad, 'esto no es un modelo ggml');
  const refused = spawnSync(process.execPath, [CLI, 'instalar-modelo', bad, '--destino', join(dir, 'otro.bin')], {
    env,
    encoding: 'utf8',
  });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /No se pudo instalar el modelo/);
  assert.ok(!existsSync(join(dir, 'otro.bin')));

  const usage = spawnSync(process.execPath, [CLI], { env, encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /instalar-modelo/);
});

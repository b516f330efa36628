import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { embeddingTableModel } from '../cerebro/testing/onnx-model.js';

const HOST_INDEX = fileURLToPath(new URL('../index.js', import.meta.url));

test("loading the host turns off onnxruntime's telemetry: running a model leaves nothing in the temporary folder", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-ort-telemetry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const scratch = join(dir, 'tmp');
  const model = join(dir, 'modelo.onnx');
  writeFileSync(model, embeddingTableModel([new Float32Array([1, 0]), new Float32Array([0, 1])]));
  // A child process with its own temporary folder and without the variable: only importing the host sets it.
  const script = `await import(${JSON.stringify(HOST_INDEX)});
    const ort = await import('onnxruntime-node');
    const s = await ort.InferenceSession.create(${JSON.stringify(model)});
    await s.release();
    console.log(process.env.ORT_DISABLE_TELEMETRY);`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'ORT_DISABLE_TELEMETRY'));
  mkdirSync(scratch);
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...env, TMPDIR: scratch },
    encoding: 'utf8',
  });
  assert.equal(res.status, 0, res.stderr);
  assert.equal(res.stdout.trim(), '1');
  assert.deepEqual(readdirSync(scratch), []);
});

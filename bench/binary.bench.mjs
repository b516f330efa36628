#!/usr/bin/env node
// The single executable (dist-binary/cerebro, from `npm run build:binary`): its size, and the time from spawning it
// to the first 200 from /api/ready, on a first start (empty cache: it unpacks itself) and on warm starts, beside
// `node host/dist/cli/main.js serve` in the same run and on the same (already initialised) data folder.
// Goals (issue #28 item 3): <= 90 MB on disk, first start <= 0.6 s, warm start <= 0.25 s; CEREBRO_BINARY_BASELINE
// names a previous build to measure beside this one in the same run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env.CEREBRO_BINARY ?? join(root, 'dist-binary', 'cerebro');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
if (!existsSync(binary)) {
  console.log(`no executable at ${binary}: run \`npm run build:binary\` first`);
  process.exit(1);
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Milliseconds from spawn to the first 200 from /api/ready; then stops the server. */
async function timeToReady(command, args, env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: env.HOME,
    env: { ...env, CEREBRO_PORT: String(port), CEREBRO_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let ms = null;
  while (child.exitCode === null && performance.now() - started < 60_000) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) {
      ms = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGTERM');
  await exited;
  if (ms === null) throw new Error(`${command} never became ready`);
  return ms;
}

/** Bytes of the files under `dir` (links counted as links). */
function treeBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    total += entry.isDirectory() ? treeBytes(full) : (statSync(full, { throwIfNoEntry: false })?.size ?? 0);
  }
  return total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Size, first start and warm starts of one executable, with a data folder and a cache folder of its own (a previous
 * build may not open a database newer builds migrated). The data folder's first run (owner, space, keys) happens
 * once before, with another cache, so every start measured does the same work.
 */
async function measure(executable, dir, env) {
  const own = join(dir, Math.random().toString(36).slice(2));
  const mine = { ...env, CEREBRO_DATA_DIR: join(own, 'data'), CEREBRO_CACHE_DIR: join(own, 'cache') };
  await timeToReady(executable, ['serve'], { ...mine, CEREBRO_CACHE_DIR: join(own, 'init-cache') });
  const size = statSync(executable).size;
  const gzip = Number(spawnSync('sh', ['-c', `gzip -c < '${executable}' | wc -c`], { encoding: 'utf8' }).stdout.trim());
  const first = await timeToReady(executable, ['serve'], mine);
  const warm = [];
  for (let i = 0; i < RUNS; i++) warm.push(await timeToReady(executable, ['serve'], mine));
  return { size, gzip, first, warm: median(warm), cache: treeBytes(mine.CEREBRO_CACHE_DIR) };
}

// CEREBRO_BINARY_BASELINE: another build (e.g. the previous release) measured in the same run, beside this one.
const baseline = process.env.CEREBRO_BINARY_BASELINE;
const dir = mkdtempSync(join(tmpdir(), 'cerebro-bench-binary-'));
try {
  const env = { PATH: '', HOME: dir, CEREBRO_DATA_DIR: join(dir, 'data') };
  const nodeEnv = { ...env, PATH: process.env.PATH };
  // First run of the data folder (owner, space, keys) once, so every start below does the same work.
  await timeToReady(process.execPath, [join(root, 'host/dist/cli/main.js'), 'serve'], nodeEnv);
  const plain = [];
  for (let i = 0; i < RUNS; i++)
    plain.push(await timeToReady(process.execPath, [join(root, 'host/dist/cli/main.js'), 'serve'], nodeEnv));
  const rows = [['this build', await measure(binary, dir, env)]];
  if (baseline && existsSync(baseline)) rows.push(['baseline', await measure(baseline, dir, env)]);
  console.log(`goals: <= 90 MB on disk, first start <= 600 ms, warm start <= 250 ms (median of ${RUNS})`);
  console.log('executable  |   size   |   gzip   | cache after start | first start | warm start');
  for (const [name, m] of rows)
    console.log(
      `${name.padEnd(11)} | ${mb(m.size).padStart(8)} | ${mb(m.gzip).padStart(8)} | ${mb(m.cache).padStart(17)} |` +
        ` ${`${m.first.toFixed(0)} ms`.padStart(11)} | ${`${m.warm.toFixed(0)} ms`.padStart(10)}`,
    );
  console.log(`node ${process.version} host/dist/cli/main.js serve, warm: ${median(plain).toFixed(0)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

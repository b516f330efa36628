#!/usr/bin/env node
// The single executable (dist-binary/cerebro, from `npm run build:binary`): its size, and the time from spawning it
// to the first 200 from /api/ready, on first starts (empty cache: it unpacks itself) and on warm starts, beside
// `node host/dist/cli/main.js serve` in the same run and on the same (already initialised) data folder.
// Goals (issue #28 item 3): <= 90 MB on disk, first start <= 0.6 s, warm start <= 0.25 s; CEREBRO_BINARY_BASELINE
// names a previous build to measure beside this one in the same run.
//
// The machine may be shared, so each start is reported twice: wall time (what a person waits) and the CPU time the
// started process used until it answered (user + system of every thread, from /proc/<pid>/stat; the stub's execv keeps
// the pid), which another load on the machine moves much less. Executables are measured in turns (one start of each,
// then the next), so a load that comes and goes weighs on both alike. Medians of BENCH_RUNS starts (5).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env.CEREBRO_BINARY ?? join(root, 'dist-binary', 'cerebro');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
if (!existsSync(binary)) {
  console.log(`no executable at ${binary}: run \`npm run build:binary\` first`);
  process.exit(1);
}
const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** CPU milliseconds (user + system, its threads and the children it waited for) of a live process. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th field.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
  return (ticks * 1000) / TICKS_PER_S;
}

/** Wall and CPU milliseconds from spawn to the first 200 from /api/ready; then stops the server. */
async function timeToReady(command, args, env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: env.HOME,
    env: { ...env, CEREBRO_PORT: String(port), CEREBRO_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let result = null;
  while (child.exitCode === null && performance.now() - started < 60_000) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) {
      result = { wall: performance.now() - started, cpu: cpuMs(child.pid) };
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGTERM');
  await exited;
  if (result === null) throw new Error(`${command} never became ready`);
  return result;
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
const summary = (starts) => ({ wall: median(starts.map((s) => s.wall)), cpu: median(starts.map((s) => s.cpu)) });
const ms = ({ wall, cpu }) => `${wall.toFixed(0)} ms (CPU ${cpu.toFixed(0)})`;

/**
 * One executable with a data folder of its own (a previous build may not open a database newer builds migrated),
 * whose first run (owner, space, keys) happens once here, so every start measured does the same work.
 */
async function prepare(name, executable, dir, env) {
  const own = join(dir, name.replace(/[^\w.]/g, '-'));
  const mine = { ...env, CEREBRO_DATA_DIR: join(own, 'data') };
  await timeToReady(executable, ['serve'], { ...mine, CEREBRO_CACHE_DIR: join(own, 'warm-cache') });
  return { name, executable, own, mine, first: [], warm: [] };
}

/** One first start (a new, empty cache folder, removed after) and one warm start (the kept cache). */
async function oneRound(row, round) {
  const cache = join(row.own, `first-cache-${round}`);
  row.first.push(await timeToReady(row.executable, ['serve'], { ...row.mine, CEREBRO_CACHE_DIR: cache }));
  if (round === 0) row.cache = treeBytes(cache);
  rmSync(cache, { recursive: true, force: true });
  row.warm.push(
    await timeToReady(row.executable, ['serve'], { ...row.mine, CEREBRO_CACHE_DIR: join(row.own, 'warm-cache') }),
  );
}

// CEREBRO_BINARY_BASELINE: other builds (e.g. the previous release; several separated by `:`) measured in the same
// run, beside this one, each named by its file name.
const baselines = (process.env.CEREBRO_BINARY_BASELINE ?? '').split(':').filter((p) => p && existsSync(p));
const dir = mkdtempSync(join(tmpdir(), 'cerebro-bench-binary-'));
try {
  const env = { PATH: '', HOME: dir, CEREBRO_DATA_DIR: join(dir, 'data') };
  const nodeEnv = { ...env, PATH: process.env.PATH };
  const plainArgs = [join(root, 'host/dist/cli/main.js'), 'serve'];
  // First run of the data folder (owner, space, keys) once, so every start below does the same work.
  await timeToReady(process.execPath, plainArgs, nodeEnv);
  const rows = [await prepare('this build', binary, dir, env)];
  for (const [i, path] of baselines.entries()) rows.push(await prepare(`${i + 1}: ${basename(path)}`, path, dir, env));
  const plain = [];
  for (let round = 0; round < RUNS; round++) {
    for (const row of rows) await oneRound(row, round);
    plain.push(await timeToReady(process.execPath, plainArgs, nodeEnv));
  }
  console.log(`goals: <= 90 MB on disk, first start <= 600 ms, warm start <= 250 ms (median of ${RUNS}, wall and CPU)`);
  const width = Math.max(10, ...rows.map((r) => r.name.length));
  console.log(
    `${'executable'.padEnd(width)} |   size   |   gzip   | cache after start |      first start      |      warm start`,
  );
  for (const row of rows) {
    const size = statSync(row.executable).size;
    const gzip = Number(
      spawnSync('sh', ['-c', `gzip -c < '${row.executable}' | wc -c`], { encoding: 'utf8' }).stdout.trim(),
    );
    console.log(
      `${row.name.padEnd(width)} | ${mb(size).padStart(8)} | ${mb(gzip).padStart(8)} | ${mb(row.cache).padStart(17)} |` +
        ` ${ms(summary(row.first)).padStart(21)} | ${ms(summary(row.warm)).padStart(21)}`,
    );
  }
  console.log(`node ${process.version} host/dist/cli/main.js serve, warm: ${ms(summary(plain))}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

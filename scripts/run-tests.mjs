#!/usr/bin/env node
// Runs every compiled test file (`*.test.js` under a package's dist/) with Node's own test runner.
// Node 20's `--test` takes no globs, so the files are listed here; the runner prints the standard summary.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packageDirs = [
  'sdk',
  'host',
  'test',
  'examples/hola-plugin',
  ...readdirSync(join(root, 'plugins')).map((p) => join('plugins', p)),
];

function collect(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) collect(full, out);
    else if (name.endsWith('.test.js')) out.push(full);
  }
  return out;
}

/**
 * The runner starts files in the order given. The longest ones (a real browser, an npm install, a fuzzing sweep, the
 * Whisper engine, several servers at once) start first, so that the run does not end with a few of them alone on
 * the cores: in name order the Studio browser files came last and ran as a tail of about 3 minutes. Figures: seconds
 * a file ran in a full run on a 2-core machine (sampled every 5 s); the rest keep their name order.
 */
const SLOW_FILES = [
  ['studio-ui-pages', 175],
  ['studio-ui-members', 135],
  ['studio-ui-modules-fuentes-landing', 115],
  ['hola-example-install', 110],
  ['fuzz-edges', 95],
  ['transcripcion/dist/engine/engine', 90],
  ['landing-browser', 80],
  ['studio-ui-', 65],
  ['new-plugin-project', 65],
  ['multiprocess', 60],
  ['bm25-parity', 60],
  ['scale-out', 55],
];
function slowness(file) {
  return SLOW_FILES.find(([name]) => file.includes(name))?.[1] ?? 0;
}

const filter = process.argv.slice(2);
const files = packageDirs
  .flatMap((dir) => collect(join(root, dir, 'dist'), []))
  .map((f) => relative(root, f))
  .filter((f) => filter.length === 0 || filter.some((needle) => f.includes(needle)))
  .sort()
  .sort((a, b) => slowness(b) - slowness(a));

if (files.length === 0) {
  console.error('No compiled test files found: run `npm run build` first.');
  process.exit(1);
}

// CEREBRO_TEST_BACKEND=postgres runs every host of the suite on PostgreSQL + Redis (a database per host or per data
// folder, under this run's own prefix). DROP DATABASE waits for a checkpoint (about a second on a loaded 2-core
// machine), so no test waits for one: while the tests run, this process drops the databases they are done with
// (closed, or made by a test process that has exited), one at a time, and at the end whatever is left, whatever
// happened (@cerebro/host's test-kit/scratch-sweeper.ts).
const runId = process.env.CEREBRO_TEST_RUN_ID ?? `${process.pid.toString(36)}${Date.now().toString(36)}`;
const sweep = (process.env.CEREBRO_TEST_BACKEND ?? 'sqlite') === 'postgres';
const env = {
  ...process.env,
  CEREBRO_LOG_LEVEL: process.env.CEREBRO_LOG_LEVEL ?? 'silent',
  CEREBRO_TEST_RUN_ID: runId,
  // Tells the test kit that this process drops what the run's tests leave (without it the kit drops at close).
  CEREBRO_TEST_SWEEPER: sweep ? '1' : '',
};
// Test files spend about half their time waiting (servers, child processes, a browser, timers): the whole suite uses
// ~740 s of CPU, and with two files at a time it took 786 s on CI's 2 cores (1,570 core-seconds). One file more than
// the cores keeps them busy; CEREBRO_TEST_CONCURRENCY overrides it.
const concurrency = Number(process.env.CEREBRO_TEST_CONCURRENCY) || Math.min(availableParallelism() + 1, 8);
const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...files], {
  cwd: root,
  stdio: 'inherit',
  env,
});
const exited = once(child, 'exit');
let running = true;
void exited.then(() => (running = false));

if (sweep) {
  const kit = await import('@cerebro/host/test-kit');
  const prefix = kit.scratchPrefix(env);
  let swept = 0;
  while (running) {
    // A server that does not answer: the tests skip or fail saying so; the sweep tries again next time.
    swept += (await kit.dropFinishedScratchDatabases(prefix).catch(() => [])).length;
    await Promise.race([sleep(1_000), exited]);
  }
  const dropped = await kit.dropScratchDatabases(env);
  if (swept + dropped.length)
    console.log(
      `# ${swept + dropped.length} bases de datos de prueba de PostgreSQL borradas (${swept} mientras corrían las pruebas, ${dropped.length} al terminar)`,
    );
}
const [code] = await exited;
process.exit(code ?? 1); // null: ended by a signal

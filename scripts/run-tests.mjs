#!/usr/bin/env node
// Runs every compiled test file (`*.test.js` under a package's dist/) with Node's own test runner.
// Node 20's `--test` takes no globs, so the files are listed here; the runner prints the standard summary.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
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

const filter = process.argv.slice(2);
const files = packageDirs
  .flatMap((dir) => collect(join(root, dir, 'dist'), []))
  .map((f) => relative(root, f))
  .filter((f) => filter.length === 0 || filter.some((needle) => f.includes(needle)))
  .sort();

if (files.length === 0) {
  console.error('No compiled test files found: run `npm run build` first.');
  process.exit(1);
}

// CEREBRO_TEST_BACKEND=postgres runs every host of the suite on PostgreSQL + Redis (a database per host or per data
// folder, under this run's own prefix, dropped at the end whatever happened).
const runId = process.env.CEREBRO_TEST_RUN_ID ?? `${process.pid.toString(36)}${Date.now().toString(36)}`;
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CEREBRO_LOG_LEVEL: process.env.CEREBRO_LOG_LEVEL ?? 'silent', CEREBRO_TEST_RUN_ID: runId },
});
if ((process.env.CEREBRO_TEST_BACKEND ?? 'sqlite') === 'postgres') {
  const { dropScratchDatabases } = await import('@cerebro/host/test-kit');
  const dropped = await dropScratchDatabases({ ...process.env, CEREBRO_TEST_RUN_ID: runId });
  if (dropped.length) console.log(`# ${dropped.length} bases de datos de prueba de PostgreSQL borradas al terminar`);
}
process.exit(result.status ?? 1);

// `cerebro serve` started from a folder whose plugins/ holds a second copy of a plugin the host already has (the
// single executable run inside a source checkout, or an author's copy of a shipped plugin): it refuses to start, and
// the message names both folders, so the person knows which one to remove or where else to start from.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'host/dist/cli/main.js');

const withoutServers = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(env).filter(([name]) => !['CEREBRO_DATABASE_URL', 'CEREBRO_REDIS_URL'].includes(name)),
  );

test('a second copy of a shipped plugin in the working folder refuses start naming both folders', async (t) => {
  const folder = await realpath(await mkdtemp(join(tmpdir(), 'cerebro-dup-')));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const copy = join(folder, 'plugins', 'copia-de-marca');
  await mkdir(copy, { recursive: true });
  await writeFile(
    join(copy, 'package.json'),
    JSON.stringify({ name: 'copia-de-marca', version: '1.0.0', type: 'module', cerebro: { plugin: 'index.js' } }),
  );
  const shipped = join(ROOT, 'plugins', 'marca');
  await writeFile(
    join(copy, 'index.js'),
    `export { default } from ${JSON.stringify(pathToFileURL(join(shipped, 'dist/index.js')).href)};\n`,
  );
  const child = spawn(process.execPath, [CLI, 'serve'], {
    cwd: folder,
    // SQLite whatever the run's backend: the refusal comes before any plugin touches storage.
    env: {
      ...withoutServers(process.env),
      CEREBRO_DATA_DIR: join(folder, 'datos'),
      CEREBRO_PORT: '0',
      CEREBRO_LOG_LEVEL: 'warn',
      CEREBRO_PLUGINS_ALLOW: 'marca',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 1, stderr);
  assert.match(stderr, /\[PLUGIN_DUPLICATE_ID\] plugin "marca": hay dos plugins con el mismo id/);
  assert.ok(stderr.includes(`uno en ${await realpath(shipped)} y otro en ${copy}`), stderr);
  assert.match(stderr, /Deja uno solo/);
});

// The commands the README, the CLI's messages and its hints name work exactly as written in a checkout: the bins
// `npm install` links (`npx cerebro …`, `npx cerebro-transcripcion …`), the root scripts (`npm run cerebro -- …`),
// a plugin's own command through the host (`npx cerebro transcripcion …`), and the command the server's start-up
// hint prints. (The executable's side is in binary.test.ts.)
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServer } from './support/server-process.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs a command line as a person types it, from the checkout's root, with npm kept off the registry (a command
 * that is not linked fails instead of being looked up there: the old `npx cerebro` asked the registry, E404).
 */
async function shell(line: string, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_TEST_CONTEXT'),
  );
  return run('sh', ['-c', line], {
    cwd: ROOT,
    env: { ...clean, npm_config_offline: 'true', npm_config_yes: 'false', ...env },
  });
}

test('every bin a workspace package declares is a committed, executable file that npm install links', () => {
  for (const pkg of ['host', 'plugins/transcripcion']) {
    const { bin } = JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    for (const [name, file] of Object.entries(bin)) {
      assert.ok(
        !file.includes('dist/'),
        `${name} must not point into dist/, which does not exist when npm install links bins`,
      );
      accessSync(join(ROOT, pkg, file), constants.X_OK);
      accessSync(join(ROOT, 'node_modules/.bin', name), constants.X_OK);
    }
  }
});

test('npx cerebro, npm run cerebro and the transcription model installer work from a checkout', async () => {
  const version = `cerebro ${(JSON.parse(readFileSync(join(ROOT, 'host/package.json'), 'utf8')) as { version: string }).version}`;
  assert.equal((await shell('npx cerebro --version')).stdout.trim(), version);
  assert.equal((await shell('npm run -s cerebro -- --version')).stdout.trim(), version);
  assert.match((await shell('npx cerebro --help')).stdout, /npx cerebro …/);

  // The Whisper model installer: its own bin, the root script, and the plugin's command through the host; each
  // usage names the command it was called by and what to pass.
  for (const [line, name] of [
    ['npx cerebro-transcripcion --help', 'cerebro-transcripcion'],
    ['npm run -s cerebro-transcripcion -- --help', 'cerebro-transcripcion'],
    ['npx cerebro transcripcion --help', 'npx cerebro transcripcion'],
  ]) {
    const { stdout } = await shell(line!);
    assert.ok(stdout.startsWith(`Uso: ${name} instalar-modelo <nombre|ruta|url>`), `${line}: ${stdout}`);
    assert.match(stdout, /uno de: tiny, .*base/, `${line} lists the model names`);
  }
  await assert.rejects(
    shell('npx cerebro transcripcion'),
    (err: { code: number; stderr: string }) =>
      err.code === 2 && /Uso: npx cerebro transcripcion instalar-modelo/.test(err.stderr),
  );
  await assert.rejects(
    shell('npx cerebro no-existe'),
    (err: { code: number; stderr: string }) => err.code === 2 && /Orden desconocida: no-existe/.test(err.stderr),
  );
});

test("the command the server's start-up hint names runs as printed", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-hint-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // Started on a data folder (and, on PostgreSQL, a database) of its own, as `CEREBRO_DATA_DIR=… npm start` is: the
  // hint must carry them, since the shell it is pasted into has neither.
  const server = await startServer(dir, { CEREBRO_BOOTSTRAP_DEMO: 'false', CEREBRO_DISCOVER_PLUGINS: 'false' });
  const stopped = server.stop();
  const hint =
    /Crea una clave con: ((\S+ )*npx cerebro admin) key create --owner <id> --name <nombre> \(los propietarios: \1 owner list\)/.exec(
      server.banner,
    );
  assert.ok(hint, server.banner);
  assert.ok(hint[1]!.startsWith(`CEREBRO_DATA_DIR=${dir} `), hint[1]);
  await stopped;
  const admin = hint[1]!;
  const asPrinted = { CEREBRO_DISCOVER_PLUGINS: 'false' };
  assert.equal((await shell(`${admin} owner list --json`, asPrinted)).stdout.trim().startsWith('{'), true);
  const owner = JSON.parse((await shell(`${admin} owner create --name Ana --json`, asPrinted)).stdout) as {
    id: string;
  };
  const created = JSON.parse(
    (await shell(`${admin} key create --owner ${owner.id} --name web --json`, asPrinted)).stdout,
  ) as { token: string };
  assert.match(created.token, /^crb_/);
});

test('the start command `cerebro admin restaurar` prints runs as printed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-restaurar-'));
  const started: ChildProcess[] = [];
  t.after(async () => {
    for (const child of started) if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  // A data folder on SQLite (the embedded default, whatever the run's backend), backed up and restored as typed.
  const [original, backup, copy] = ['original', 'respaldo', 'copia'].map((name) => join(dir, name));
  const onSqlite = { CEREBRO_DATA_DIR: original!, CEREBRO_DISCOVER_PLUGINS: 'false' };
  await shell('npx cerebro admin owner create --name Ana --crear --json', onSqlite);
  await shell(`npx cerebro admin respaldo ${backup}`, onSqlite);
  const { stderr } = await shell(`npx cerebro admin restaurar ${backup} ${copy}`, onSqlite);
  const hint = /Para arrancar sobre la copia:\n {2}(.+)\n/.exec(stderr)?.[1];
  assert.equal(hint, `CEREBRO_DATA_DIR=${copy} npx cerebro serve`, stderr);

  // Pasted into a shell that has none of the variables above, it serves the restored folder.
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_|^CEREBRO_/i.test(k) && k !== 'NODE_TEST_CONTEXT'),
  );
  const child = spawn('sh', ['-c', hint!], {
    cwd: ROOT,
    detached: true,
    env: { ...clean, npm_config_offline: 'true', CEREBRO_PORT: '0', CEREBRO_DISCOVER_PLUGINS: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  let banner = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      banner += d;
      const found = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(banner)?.[1];
      if (found && /openapi\.json/.test(banner)) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${banner}`)));
  });
  const health = (await (await fetch(`${url}/api/health`)).json()) as { estado: string };
  assert.ok(health.estado, JSON.stringify(health));
  process.kill(-child.pid!, 'SIGTERM');
});

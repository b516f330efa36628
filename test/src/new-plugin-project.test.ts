// A third party's whole path, as the README gives it: `cerebro plugins nuevo` in an empty folder outside the
// workspace writes a project on the sdk and host tarballs `npm run build` packs into dist-sdk/; the commands it
// prints install it (the rest from the registry), build it, test it with the sdk's testing kit and pack it; the
// `plugins add` line it prints installs the package and prints the command that enables the module, which works;
// and the plugin answers through `cerebro serve`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { authorEnv, brokenHeaders } from './support/author-env.js';
import { postgresMissing } from './support/postgres-available.js';
import { backendEnvOf, startServer } from './support/server-process.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'host/bin/cerebro.js');
const noPostgres = await postgresMissing();

/** A command line run as printed, through the shell, from `cwd`; its output. */
async function shell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return (await run('sh', ['-c', line], { cwd, env, maxBuffer: 16 * 1024 * 1024 })).stdout;
}

test('cerebro plugins nuevo: refuses a bad id, a reserved id, a folder with files and missing tarballs', async (t) => {
  const tmp = await mkdtemp(join(tmpdir(), 'cerebro-nuevo-refusals-'));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  const nuevo = (...args: string[]) => run(process.execPath, [CLI, 'plugins', 'nuevo', ...args], { cwd: tmp });
  const refused = (message: RegExp) => (err: { code: number; stderr: string }) =>
    err.code === 1 && message.test(err.stderr);
  await assert.rejects(nuevo('Mal_Id'), refused(/"Mal_Id" no vale como id de plugin/));
  await assert.rejects(nuevo('admin'), refused(/reservado por el host/));
  await assert.rejects(
    nuevo('uno', '--sdk', join(tmp, 'no-hay.tgz')),
    refused(/no encuentro el paquete del sdk .*no-hay\.tgz/),
  );
  await mkdir(join(tmp, 'ocupada', 'algo'), { recursive: true });
  await assert.rejects(nuevo('uno', '--destino', join(tmp, 'ocupada')), refused(/no está vacía/));
  assert.ok(!existsSync(join(tmp, 'cerebro-plugin-uno')), 'nothing written');
});

test('from an empty folder outside the workspace: scaffold, install, build, test with the sdk kit, pack, plugins add, enable, serve', {
  skip: brokenHeaders,
  timeout: 900_000,
}, async (t) => {
  // The tarballs are what `npm run build` leaves in dist-sdk/; a build without its last step gets them here.
  if (!existsSync(join(ROOT, 'dist-sdk')))
    await run(process.execPath, [join(ROOT, 'scripts/pack-plugin-kit.mjs')], { cwd: ROOT });
  const tmp = await mkdtemp(join(tmpdir(), 'cerebro-nuevo-'));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  const env = authorEnv();

  const printed = (await run(process.execPath, [CLI, 'plugins', 'nuevo', 'saludos'], { cwd: tmp, env })).stdout;
  const project = join(tmp, 'cerebro-plugin-saludos');
  const lines = printed
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter(Boolean);
  assert.deepEqual(lines.slice(0, 2), [`cd ${project}`, 'npm install && npm test && npm pack'], printed);
  const tgz = join(project, 'cerebro-plugin-saludos-0.1.0.tgz');
  assert.equal(lines[2], `cd ${ROOT.replace(/\/$/, '')} && npx cerebro plugins add ${tgz}`);

  const built = await shell(lines[1]!, project, env);
  assert.match(built, /^# pass 3$/m, built);
  assert.match(built, /^# fail 0$/m, built);
  assert.ok(existsSync(tgz), 'npm pack wrote the package');

  // The same tests with the kit's host on PostgreSQL + Redis: the template's postgresMigrations twin is what lets
  // the plugin start there.
  await t.test('its own tests pass on PostgreSQL too (npm run test:postgres)', { skip: noPostgres }, async () => {
    const onPostgres = await shell('npm run test:postgres', project, env);
    assert.match(onPostgres, /^# pass 3$/m, onPostgres);
    assert.match(onPostgres, /^# fail 0$/m, onPostgres);
  });

  // The server's side: a data folder of its own, only this plugin.
  const dataDir = join(tmp, 'data');
  const serverEnv = {
    ...env,
    CEREBRO_DATA_DIR: dataDir,
    ...(await backendEnvOf(dataDir)),
    CEREBRO_PLUGINS_ALLOW: 'saludos',
    CEREBRO_LOG_LEVEL: 'silent',
  };
  const added = await shell(lines[2]!, tmp, serverEnv);
  // Preceded by the data folder (and database) the command was given, so it runs as printed in another shell.
  const enable = /^ {2}((?:\S+ )*npx cerebro admin space module --id <espacio> --module saludos --on)$/m.exec(
    added,
  )?.[1];
  assert.ok(enable?.startsWith(`CEREBRO_DATA_DIR=${dataDir} `), added);
  const cli = async (...args: string[]) => (await run(process.execPath, [CLI, ...args], { env: serverEnv })).stdout;
  const owner = JSON.parse(
    await cli('admin', 'owner', 'create', '--name', 'Ana', '--credits', '5', '--json', '--crear'),
  ) as { id: string };
  await cli('admin', 'space', 'create', '--id', 'tienda', '--owner', owner.id, '--modules', 'api');
  await shell(enable!.replace('<espacio>', 'tienda'), ROOT, env);
  const key = JSON.parse(
    await cli('admin', 'key', 'create', '--owner', owner.id, '--name', 'k', '--permiso', 'escribe', '--json'),
  ) as { token: string };

  const server = await startServer(dataDir, { CEREBRO_PLUGINS_ALLOW: 'saludos', CEREBRO_BOOTSTRAP_DEMO: 'false' });
  t.after(() => server.stop());
  const res = await fetch(`${server.url}/api/mod/saludos/tienda/saludo`, {
    headers: { authorization: `Bearer ${key.token}` },
  });
  assert.deepEqual(await res.json(), { saludo: 'Hola desde saludos, tienda' });
});

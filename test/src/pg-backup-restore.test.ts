// The PostgreSQL backup the CLI documents, end to end: `cerebro admin respaldo` on a host with a plugin that keeps
// tables prints pg_dump and pg_restore lines; run exactly as printed they restore into a new database on the same
// server, and a host started on it serves the plugin's data. A restored plugin schema belonged to the restoring user
// and the host's new role for the plugin (its name carries the new database's) could not read it: the start failed
// with `permission denied for table cerebro_migrations`.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dropWithPluginRoles, scratchBackend } from '@cerebro/host/test-kit';
import { startServer, type ServerProcess } from './support/server-process.js';

const CLI = fileURLToPath(new URL('../../host/dist/cli/main.js', import.meta.url));
const ENV = { CEREBRO_PLUGINS_ALLOW: 'marca' };
const hasPgTools = spawnSync('pg_restore', ['--version']).status === 0;

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

const demoKey = async (dataDir: string): Promise<string> =>
  /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8'))![0];

test('the printed pg_dump / pg_restore lines restore a plugin database a host on the new database starts on', {
  skip: hasPgTools ? false : 'sin pg_dump / pg_restore (paquete postgresql-client)',
}, async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-pg-respaldo-'));
  const backend = await scratchBackend('postgres', { empty: true });
  const servers: ServerProcess[] = [];
  let restoredUrl = '';
  t.after(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.crash();
    if (restoredUrl) await dropWithPluginRoles(new URL(restoredUrl).pathname.slice(1));
    await backend.close();
    await rm(root, { recursive: true, force: true });
  });
  const original = join(root, 'original');
  const env = { ...ENV, ...backend.env };
  const a = await startServer(original, env);
  servers.push(a);
  const key = await demoKey(original);
  const config = (server: ServerProcess, init: RequestInit = {}) =>
    fetch(`${server.url}/api/mod/marca/demo/config`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
  const saved = await config(a, { method: 'PATCH', body: JSON.stringify({ name: 'Sol Deportes' }) });
  assert.equal(saved.status, 200, await saved.text());

  const advice = await run(process.execPath, [CLI, 'admin', 'respaldo', join(root, 'copia'), '--json'], {
    ...env,
    CEREBRO_DATA_DIR: original,
  });
  assert.equal(advice.code, 0, advice.out);
  const { respaldo, restaurar } = JSON.parse(advice.out) as { respaldo: string[]; restaurar: string[] };
  for (const line of [...respaldo, ...restaurar]) {
    const done = await run('sh', ['-c', line], {});
    assert.equal(done.code, 0, `${line}\n${done.out}`);
  }
  restoredUrl = /--dbname=('[^']*'|\S+)/.exec(restaurar.join('\n'))![1]!.replace(/^'|'$/g, '');
  assert.notEqual(restoredUrl, backend.env.CEREBRO_DATABASE_URL);

  const b = await startServer(join(root, 'restaurada'), { ...env, CEREBRO_DATABASE_URL: restoredUrl });
  servers.push(b);
  const read = await config(b);
  assert.equal(read.status, 200);
  assert.equal(((await read.json()) as { name: string }).name, 'Sol Deportes');
  // The restored plugin tables are the new role's: its migrations and writes work, as on the original.
  const again = await config(b, { method: 'PATCH', body: JSON.stringify({ name: 'Sol Restaurado' }) });
  assert.equal(again.status, 200, await again.text());
  assert.equal(((await (await config(a)).json()) as { name: string }).name, 'Sol Deportes');
});

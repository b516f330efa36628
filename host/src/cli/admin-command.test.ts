import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { runCli } from './run-cli.js';

/** Runs `cerebro admin ...` on a data directory, with discovery limited to the marca plugin of the workspace. */
async function cli(dataDir: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const sink = (write: (s: string) => void) => new Writable({ write(chunk, _enc, done) { write(String(chunk)); done(); } });
  const env = { CEREBRO_DATA_DIR: dataDir, CEREBRO_PLUGINS_ALLOW: 'marca' };
  const code = await runCli(['admin', ...args, '--json'], { stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), env });
  return { code, out, err };
}

test('the CLI validates through the admin service: ids, credits, dates and modules', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));

  const refusedCredits = await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--credits=-1']);
  assert.equal(refusedCredits.code, 1);
  assert.match(refusedCredits.err, /--credits: .*mayor o igual que 0/);
  assert.equal((await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--credits', '12abc'])).code, 1);

  const owner = await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--credits', '10']);
  assert.equal(owner.code, 0, owner.err);
  const { id: ownerId, cuenta } = JSON.parse(owner.out) as { id: string; cuenta: string };

  const noOwner = await cli(dataDir, ['space', 'create', '--id', 'tienda', '--owner', 'own_nadie']);
  assert.equal(noOwner.code, 1);
  assert.match(noOwner.err, /Propietario no encontrado/);

  const unknownModule = await cli(dataDir, ['space', 'create', '--id', 'tienda', '--owner', ownerId, '--modules', 'api,inventado']);
  assert.equal(unknownModule.code, 1);
  assert.match(unknownModule.err, /--modules: Módulo desconocido: "inventado"\. Módulos disponibles: api, marca\./);
  assert.equal((await cli(dataDir, ['space', 'create', '--id', 'tienda', '--owner', ownerId, '--modules', 'api,marca'])).code, 0);

  for (const until of ['tomorrow', '2026-13-45']) {
    const res = await cli(dataDir, ['space', 'trial', '--id', 'tienda', '--until', until]);
    assert.equal(res.code, 1, until);
    assert.match(res.err, /--until \/ --trial-ends: Debe ser una fecha ISO 8601/);
  }
  assert.equal((await cli(dataDir, ['space', 'trial', '--id', 'tienda', '--until', '2030-01-31'])).code, 0);
  assert.equal((await cli(dataDir, ['space', 'trial', '--id', 'no-existe', '--until', '2030-01-31'])).code, 1);

  const unpaid = await cli(dataDir, ['account', 'payment', '--id', cuenta, '--unpaid-since', '2026-13-45']);
  assert.equal(unpaid.code, 1);
  assert.match(unpaid.err, /--unpaid-since/);
  assert.equal((await cli(dataDir, ['account', 'credits', '--id', 'cta_nadie', '--amount', '5'])).code, 1);

  assert.equal((await cli(dataDir, ['space', 'module', '--id', 'tienda', '--module', 'inventado', '--on'])).code, 1);
  assert.equal((await cli(dataDir, ['space', 'module', '--id', 'no-existe', '--module', 'api', '--off'])).code, 1);
  assert.equal((await cli(dataDir, ['space', 'module', '--id', 'tienda', '--module', 'marca', '--off'])).code, 0);
});

test('cerebro admin respaldo copies the databases into a new folder and refuses an existing one', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  assert.equal((await cli(dataDir, ['owner', 'create', '--name', 'Ana'])).code, 0);

  const target = join(dataDir, 'copia');
  const done = await cli(dataDir, ['respaldo', target]);
  assert.equal(done.code, 0, done.err);
  assert.deepEqual(JSON.parse(done.out).bases, ['cerebro.db']);
  const again = await cli(dataDir, ['respaldo', target]);
  assert.equal(again.code, 1);
  assert.match(again.err, /ya existe/);
  assert.equal((await cli(dataDir, ['respaldo'])).code, 2);
});

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCaptured } from './testing/captured-cli.js';

const cli = (dataDir: string, args: string[]) =>
  runCaptured(['admin', ...args, '--crear', '--json'], { CEREBRO_DATA_DIR: dataDir, CEREBRO_PLUGINS_ALLOW: 'marca' });

test('changes made with `cerebro admin` are in the audit log as the operator `cli`; `admin auditoria` reads it', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-audit-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const owner = JSON.parse((await cli(dataDir, ['owner', 'create', '--name', 'Ana'])).out) as {
    id: string;
    cuenta: string;
  };
  assert.equal((await cli(dataDir, ['space', 'create', '--id', 'tienda', '--owner', owner.id])).code, 0);
  assert.equal((await cli(dataDir, ['account', 'credits', '--id', owner.cuenta, '--amount', '7'])).code, 0);
  assert.equal((await cli(dataDir, ['owner', 'list'])).code, 0, 'a reading records nothing');

  const page = await cli(dataDir, ['auditoria', '--limit', '2']);
  assert.equal(page.code, 0, page.err);
  const { eventos, siguiente } = JSON.parse(page.out);
  assert.deepEqual(
    eventos.map((e: { accion: string; propietario: string }) => [e.accion, e.propietario]),
    [
      ['creditos.anadidos', owner.id],
      ['espacio.creado', owner.id],
    ],
    'the owner is looked up from the account and the space',
  );
  assert.equal(eventos[0].actor.tipo, 'operador');
  assert.equal(eventos[0].actor.id, 'cli');
  assert.deepEqual(eventos[0].detalles, { cantidad: 7 });
  assert.equal(eventos[0].ruta, null);

  const rest = await cli(dataDir, ['auditoria', '--cursor', siguiente]);
  assert.deepEqual(
    JSON.parse(rest.out).eventos.map((e: { accion: string }) => e.accion),
    ['propietario.creado'],
  );
  const lines = await runCaptured(['admin', 'auditoria', '--jsonl', '--action', 'espacio.'], {
    CEREBRO_DATA_DIR: dataDir,
    CEREBRO_PLUGINS_ALLOW: 'marca',
  });
  assert.equal(lines.code, 0, lines.err);
  assert.deepEqual(
    lines.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).accion),
    ['espacio.creado'],
  );
  const bad = await cli(dataDir, ['auditoria', '--since', 'ayer']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /--since y --until/);
});

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type CapturedRun, runCaptured } from './testing/captured-cli.js';

/**
 * Runs `cerebro admin ...` on a data directory (created if missing: `--crear`), with discovery limited to the marca
 * plugin of the workspace; `json` false for the human messages.
 */
function cli(dataDir: string, args: string[], json = true): Promise<CapturedRun> {
  return runCaptured(['admin', ...args, '--crear', ...(json ? ['--json'] : [])], {
    CEREBRO_DATA_DIR: dataDir,
    CEREBRO_PLUGINS_ALLOW: 'marca',
  });
}

test('the CLI validates through the admin service: ids, credits, dates and modules', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));

  const refusedCredits = await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--credits=-1'], false);
  assert.equal(refusedCredits.code, 1);
  assert.match(refusedCredits.err, /--credits: .*mayor o igual que 0/);
  assert.equal((await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--credits', '12abc'])).code, 1);

  const owner = await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--credits', '10']);
  assert.equal(owner.code, 0, owner.err);
  const { id: ownerId, cuenta } = JSON.parse(owner.out) as { id: string; cuenta: string };

  const noOwner = await cli(dataDir, ['space', 'create', '--id', 'tienda', '--owner', 'own_nadie'], false);
  assert.equal(noOwner.code, 1);
  assert.match(noOwner.err, /Propietario no encontrado/);

  const unknownModule = await cli(
    dataDir,
    ['space', 'create', '--id', 'tienda', '--owner', ownerId, '--modules', 'api,inventado'],
    false,
  );
  assert.equal(unknownModule.code, 1);
  assert.match(unknownModule.err, /--modules: Módulo desconocido: "inventado"\. Módulos disponibles: api, marca\./);
  assert.equal(
    (await cli(dataDir, ['space', 'create', '--id', 'tienda', '--owner', ownerId, '--modules', 'api,marca'])).code,
    0,
  );

  for (const until of ['tomorrow', '2026-13-45']) {
    const res = await cli(dataDir, ['space', 'trial', '--id', 'tienda', '--until', until], false);
    assert.equal(res.code, 1, until);
    assert.match(res.err, /--until \/ --trial-ends: Debe ser una fecha ISO 8601/);
  }
  assert.equal((await cli(dataDir, ['space', 'trial', '--id', 'tienda', '--until', '2030-01-31'])).code, 0);
  assert.equal((await cli(dataDir, ['space', 'trial', '--id', 'no-existe', '--until', '2030-01-31'])).code, 1);

  const unpaid = await cli(dataDir, ['account', 'payment', '--id', cuenta, '--unpaid-since', '2026-13-45'], false);
  assert.equal(unpaid.code, 1);
  assert.match(unpaid.err, /--unpaid-since/);
  assert.equal((await cli(dataDir, ['account', 'credits', '--id', 'cta_nadie', '--amount', '5'])).code, 1);
  // A negative amount removes credits, written as the README does (`--amount -4`), not only as `--amount=-4`.
  const removed = await cli(dataDir, ['account', 'credits', '--id', cuenta, '--amount', '-4']);
  assert.equal(removed.code, 0, removed.err);
  assert.equal((JSON.parse(removed.out) as { saldo: number }).saldo, 6);
  const typo = await cli(dataDir, ['account', 'credits', '--id', cuenta, '--cantidad', '4'], false);
  assert.equal(typo.code, 2);
  assert.match(typo.err, /^Opción desconocida: --cantidad\./);
  const empty = await cli(dataDir, ['account', 'credits', '--id', cuenta, '--amount'], false);
  assert.equal(empty.code, 2);
  assert.match(empty.err, /^Falta el valor de la opción --amount/);

  assert.equal((await cli(dataDir, ['space', 'module', '--id', 'tienda', '--module', 'inventado', '--on'])).code, 1);
  assert.equal((await cli(dataDir, ['space', 'module', '--id', 'no-existe', '--module', 'api', '--off'])).code, 1);
  assert.equal((await cli(dataDir, ['space', 'module', '--id', 'tienda', '--module', 'marca', '--off'])).code, 0);
});

/** Runs `cerebro ...` with the given arguments as they are. */
function raw(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CapturedRun> {
  return runCaptured(args, { CEREBRO_PLUGINS_ALLOW: 'marca', ...env });
}

test('without a database the CLI says so and creates nothing, unless --crear', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const missing = join(dataDir, 'mal-escrito');
  const refused = await raw(['admin', 'owner', 'list'], { CEREBRO_DATA_DIR: missing });
  assert.equal(refused.code, 1);
  assert.match(refused.err, /No hay base de datos en .*mal-escrito.*--crear/);
  assert.equal(existsSync(missing), false);
  const asJson = await raw(['admin', 'owner', 'list', '--json'], { CEREBRO_DATA_DIR: missing });
  assert.match(JSON.parse(asJson.err).detail, /No hay base de datos/);
  assert.equal((await raw(['admin', 'owner', 'list', '--crear'], { CEREBRO_DATA_DIR: missing })).code, 0);
  assert.equal(existsSync(join(missing, 'cerebro.db')), true);
});

test('list, show and revoke from the CLI; errors under --json are {"detail": ...}', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const owner = JSON.parse((await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--credits', '3'])).out) as {
    id: string;
    cuenta: string;
  };
  assert.equal(
    (await cli(dataDir, ['space', 'create', '--id', 'tienda', '--owner', owner.id, '--modules', 'api'])).code,
    0,
  );
  const key = JSON.parse((await cli(dataDir, ['key', 'create', '--owner', owner.id, '--name', 'web'])).out) as {
    id: string;
  };

  const owners = JSON.parse((await cli(dataDir, ['owner', 'list', '--limit', '10'])).out);
  assert.equal(owners.total, 1);
  assert.deepEqual(owners.propietarios[0].espacios, ['tienda']);
  assert.equal(JSON.parse((await cli(dataDir, ['owner', 'show', '--id', owner.id])).out).cuenta.creditos, 3);
  assert.deepEqual(
    JSON.parse((await cli(dataDir, ['space', 'list', '--owner', owner.id])).out).espacios.map(
      (s: { id: string }) => s.id,
    ),
    ['tienda'],
  );
  assert.deepEqual(JSON.parse((await cli(dataDir, ['space', 'show', '--id', 'tienda'])).out).modulos, ['api']);
  const human = await cli(dataDir, ['space', 'list'], false);
  assert.match(human.out, /espacios:\n {2}- id=tienda nombre=tienda propietario=own_/);

  assert.deepEqual(JSON.parse((await cli(dataDir, ['key', 'revoke', '--id', key.id])).out), { revocado: key.id });
  const again = await cli(dataDir, ['key', 'revoke', '--id', key.id]);
  assert.equal(again.code, 1);
  assert.deepEqual(JSON.parse(again.err), { detail: 'La credencial ya estaba revocada.' });
  assert.match(
    JSON.parse((await cli(dataDir, ['key', 'list', '--owner', owner.id])).out).claves[0].revocado,
    /^\d{4}-/,
  );

  const badPage = await cli(dataDir, ['owner', 'list', '--limit', '0']);
  assert.equal(badPage.code, 1);
  assert.deepEqual(JSON.parse(badPage.err).detail[0].loc, ['query', 'limite']);
  assert.match(
    (await cli(dataDir, ['owner', 'list', '--limit', '0'], false)).err,
    /--limit: Debe ser un entero de 1 a 200/,
  );
  const unknownOption = await cli(dataDir, ['owner', 'list', '--nada']);
  assert.equal(unknownOption.code, 2);
  assert.match(JSON.parse(unknownOption.err).detail, /nada/);
});

test('--help on every command prints its usage and does nothing else; --version prints the version', async () => {
  for (const args of [
    ['--help'],
    ['admin', '--help'],
    ['admin', 'owner', 'create', '--help'],
    ['serve', '--help'],
    ['modelos', '--help'],
    ['config', '--help'],
    ['admin', 'key', 'revoke', '-h'],
  ]) {
    const res = await raw(args, { CEREBRO_DATA_DIR: join(tmpdir(), 'cerebro-no-existe') });
    assert.equal(res.code, 0, args.join(' '));
    assert.match(res.out, /^Uso: cerebro/, args.join(' '));
    assert.equal(res.err, '');
  }
  assert.match((await raw(['admin', 'owner', 'create', '--help'])).out, /--name N/);
  assert.equal(existsSync(join(tmpdir(), 'cerebro-no-existe')), false);
  const version = await raw(['--version']);
  assert.match(version.out, /^cerebro \d+\.\d+\.\d+/);
});

test('cerebro config prints the effective configuration with every secret masked', async () => {
  const env = {
    CEREBRO_PORT: '9000',
    CEREBRO_LLM_URL: 'https://ana:contrasena@llm.example/v1',
    CEREBRO_LLM_API_KEY: 'sk-secreto',
    CEREBRO_MARCA_API_KEY: 'otro-secreto',
    CEREBRO_MARCA_TONO: 'cercano',
    CEREBRO_ARCHIVOS: 's3://cubo/cerebro?endpoint=http://127.0.0.1:9000',
    CEREBRO_ARCHIVOS_ACCESS_KEY: 'acceso-secreto',
    CEREBRO_ARCHIVOS_SECRET_KEY: 'clave-secreto',
  };
  const res = await raw(['config', '--json'], env);
  assert.equal(res.code, 0, res.err);
  const shown = JSON.parse(res.out);
  assert.equal(shown.port, 9000);
  assert.equal(shown.host, '127.0.0.1');
  assert.equal(shown.trustProxy, 'false');
  assert.equal(shown.llmApiKey, '[oculto]');
  assert.equal(shown.embeddingApiKey, '');
  assert.equal(shown.llmUrl, 'https://ana:[oculto]@llm.example/v1');
  assert.equal(shown.entorno.CEREBRO_MARCA_API_KEY, '[oculto]');
  assert.equal(shown.entorno.CEREBRO_MARCA_TONO, 'cercano');
  assert.equal(shown.originals, 's3://cubo/cerebro/', 'where originals live, without the S3 keys');
  assert.equal(shown.entorno.CEREBRO_ARCHIVOS_SECRET_KEY, '[oculto]');
  assert.doesNotMatch(res.out, /secreto|contrasena/);
  const refused = await raw(['config', '--json'], { CEREBRO_PORT: 'ochenta' });
  assert.equal(refused.code, 1);
  assert.match(JSON.parse(refused.err).detail, /CEREBRO_PORT/);
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

test('cerebro admin respaldo on PostgreSQL prints the pg_dump and pg_restore lines, exit 0, copies nothing', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const target = join(dataDir, 'copia');
  const env = {
    CEREBRO_DATA_DIR: dataDir,
    CEREBRO_DATABASE_URL: 'postgres://cerebro:s3creta@db.interna:5432/cerebro',
  };
  const json = await runCaptured(['admin', 'respaldo', target, '--json'], env);
  assert.equal(json.code, 0, json.err);
  const advice = JSON.parse(json.out) as { postgresql: boolean; respaldo: string[]; restaurar: string[] };
  assert.equal(advice.postgresql, true);
  assert.ok(advice.respaldo.some((line) => line.startsWith('pg_dump --format=custom')));
  assert.ok(advice.respaldo.some((line) => line.includes('db.interna:5432/cerebro')));
  assert.ok(advice.restaurar.some((line) => line.startsWith('pg_restore')));
  // Runnable as printed: no elided URL, the server named on every line, the password never shown (not even masked).
  assert.deepEqual(advice.restaurar, [
    "createdb --maintenance-db='postgres://cerebro@db.interna:5432/cerebro' 'cerebro_restaurada'",
    `pg_restore --no-owner --no-acl --exit-on-error --dbname='postgres://cerebro@db.interna:5432/cerebro_restaurada' '${target}/cerebro.dump'`,
  ]);
  assert.doesNotMatch(json.out, /s3creta/);
  assert.equal(existsSync(target), false);
  const human = await runCaptured(['admin', 'respaldo', target], env);
  assert.equal(human.code, 0, human.err);
  assert.match(human.out, /pg_dump/);
  assert.match(human.out, /^restaurar:\n {2}createdb .*\n {2}pg_restore .*\n/m, 'one command per line');
  assert.match(human.out, /PostgreSQL/);
  assert.doesNotMatch(human.out, /s3creta/);
});

test('cerebro admin owner spaces: shows and sets the allowance (defecto: the default); bad values and owners refused; audited', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const { id } = JSON.parse((await cli(dataDir, ['owner', 'create', '--name', 'Ana'])).out) as { id: string };
  const shown = await cli(dataDir, ['owner', 'spaces', '--id', id]);
  assert.equal(shown.code, 0, shown.err);
  assert.deepEqual(JSON.parse(shown.out), {
    propietario: id,
    propio: null,
    max_espacios: 0,
    espacios: 0,
    disponibles: 0,
  });
  const set = await cli(dataDir, ['owner', 'spaces', '--id', id, '--max', '3']);
  assert.deepEqual(JSON.parse(set.out), { propietario: id, propio: 3, max_espacios: 3, espacios: 0, disponibles: 3 });
  const back = await cli(dataDir, ['owner', 'spaces', '--id', id, '--max', 'defecto']);
  assert.equal(JSON.parse(back.out).propio, null);
  const bad = await cli(dataDir, ['owner', 'spaces', '--id', id, '--max', 'muchos'], false);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /--max: Debe ser un entero de 0 a 10000/);
  assert.equal((await cli(dataDir, ['owner', 'spaces', '--id', 'own_nadie', '--max', '1'])).code, 1);
  const log = await cli(dataDir, ['auditoria', '--owner', id, '--action', 'propietario.cupo_espacios_modificado']);
  const events = JSON.parse(log.out).eventos as { accion: string; detalles: unknown }[];
  assert.deepEqual(
    events.map((e) => [e.accion, e.detalles]),
    [
      ['propietario.cupo_espacios_modificado', { max_espacios: null }],
      ['propietario.cupo_espacios_modificado', { max_espacios: 3 }],
    ],
    'each change, newest first; showing it is not one',
  );
});

test('cerebro admin respaldo with originals in S3 says what to do (bucket versioning, the databases) and copies nothing', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-respaldo-s3-'));
  try {
    const target = join(root, 'respaldo');
    const env = {
      CEREBRO_DATA_DIR: join(root, 'datos'),
      CEREBRO_ARCHIVOS: 's3://cubo/cerebro?endpoint=http://127.0.0.1:9000',
      CEREBRO_ARCHIVOS_ACCESS_KEY: 'acceso-secreto',
      CEREBRO_ARCHIVOS_SECRET_KEY: 'clave-secreto',
    };
    const res = await raw(['admin', 'respaldo', target, '--json'], env);
    assert.equal(res.code, 0, res.err);
    const advice = JSON.parse(res.out);
    assert.equal(advice.s3, true);
    assert.ok(advice.originales.some((line: string) => line.includes('put-bucket-versioning --bucket cubo')));
    assert.match(advice.bases.join('\n'), /sqlite3 .*cerebro\.db.*\.backup/);
    assert.match(advice.nota, /versionado del cubo/);
    assert.doesNotMatch(res.out, /secreto/);
    assert.equal(existsSync(target), false, 'nothing written');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../storage/database.js';
import { passwordMatches } from '../studio/password-digest.js';
import { type CapturedRun, runCaptured } from './testing/captured-cli.js';

/** `cerebro admin ...` with JSON output, optional standard input, and CEREBRO_PUBLIC_URL set. */
function cli(dataDir: string, args: string[], stdin?: string): Promise<CapturedRun> {
  const env = {
    CEREBRO_DATA_DIR: dataDir,
    CEREBRO_PLUGINS_ALLOW: 'marca',
    CEREBRO_PUBLIC_URL: 'https://cerebro.example.com',
  };
  return runCaptured(['admin', ...args, '--crear', '--json'], env, stdin);
}

const digestOf = (dataDir: string, ownerId: string): string | null => {
  const db = openDatabase(join(dataDir, 'cerebro.db'));
  try {
    return (
      db.prepare('SELECT password_digest FROM owners WHERE id = ?').get(ownerId) as { password_digest: string | null }
    ).password_digest;
  } finally {
    db.close();
  }
};

test('owner email, password (generated, or from stdin: never an argument) and one-time link from the CLI', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-cli-studio-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const { id } = JSON.parse(
    (await cli(dataDir, ['owner', 'create', '--name', 'Ana', '--email', 'Ana@Example.com'])).out,
  ) as { id: string };
  const { id: other } = JSON.parse((await cli(dataDir, ['owner', 'create', '--name', 'Bea'])).out) as { id: string };

  const taken = await cli(dataDir, ['owner', 'email', '--id', other, '--email', 'ANA@example.com']);
  assert.equal(taken.code, 1);
  assert.match(taken.err, /ya lo usa otro propietario/);
  assert.equal(
    (await cli(dataDir, ['owner', 'create', '--name', 'Otra', '--email', 'ana@EXAMPLE.com'])).code,
    1,
    'unique on creation too',
  );
  const bad = await cli(dataDir, ['owner', 'email', '--id', other, '--email', 'no-es-email']);
  assert.equal(bad.code, 1);
  const set = await cli(dataDir, ['owner', 'email', '--id', other, '--email', 'Bea@Example.com']);
  assert.deepEqual(JSON.parse(set.out), { id: other, email: 'bea@example.com' });

  const generated = await cli(dataDir, ['owner', 'password', '--id', id]);
  assert.equal(generated.code, 0, generated.err);
  const { clave, sesiones_cerradas } = JSON.parse(generated.out) as { clave: string; sesiones_cerradas: number };
  assert.equal(sesiones_cerradas, 0);
  assert.equal(await passwordMatches(clave, digestOf(dataDir, id)), true);

  const piped = await cli(
    dataDir,
    ['owner', 'password', '--id', id, '--stdin'],
    'clave leída de la entrada\nsegunda línea ignorada\n',
  );
  assert.equal(piped.code, 0, piped.err);
  assert.deepEqual(JSON.parse(piped.out), { id, sesiones_cerradas: 0 });
  assert.equal(await passwordMatches('clave leída de la entrada', digestOf(dataDir, id)), true);
  const short = await cli(dataDir, ['owner', 'password', '--id', id, '--stdin'], 'corta\n');
  assert.equal(short.code, 1);
  assert.match(short.err, /10 a 200 caracteres/);
  assert.equal(
    (await cli(dataDir, ['owner', 'password', '--id', id, '--password', 'x'.repeat(12)])).code,
    2,
    'no password option exists',
  );

  const link = await cli(dataDir, ['owner', 'link', '--id', id]);
  assert.equal(link.code, 0, link.err);
  const { enlace, expira } = JSON.parse(link.out) as { enlace: string; expira: string };
  assert.match(enlace, /^https:\/\/cerebro\.example\.com\/studio\/entrar\?token=[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/);
  assert.ok(Math.abs(Date.parse(expira) - Date.now() - 30 * 60_000) < 60_000);
  assert.equal((await cli(dataDir, ['owner', 'link', '--id', 'own_nadie'])).code, 1);
});

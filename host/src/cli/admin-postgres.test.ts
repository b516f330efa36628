// `cerebro admin` with CEREBRO_DATABASE_URL: the operator's actions run on PostgreSQL (migrated under the hosts' lock
// on first use), are seen by another run on the same database, are audited there, and never open a SQLite file.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createTestDatabase, pgUnavailable } from '../storage/postgres/testing/pg-test-database.js';
import { runCaptured } from './testing/captured-cli.js';

const skip = (await pgUnavailable()) ?? false;

describe('cerebro admin on PostgreSQL', { skip }, () => {
  test('owners, spaces, keys, credits and the audit log live in the database, not in the data folder', async (t) => {
    const db = await createTestDatabase(1);
    const dataDir = join(await mkdtemp(join(tmpdir(), 'cerebro-admin-pg-')), 'datos');
    t.after(async () => {
      await db.drop();
      await rm(join(dataDir, '..'), { recursive: true, force: true });
    });
    const env = { CEREBRO_DATA_DIR: dataDir, CEREBRO_DATABASE_URL: db.url, CEREBRO_PLUGINS_ALLOW: 'marca' };
    const admin = async (...args: string[]) => {
      const run = await runCaptured(['admin', ...args, '--json'], env);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.err}`);
      return JSON.parse(run.out) as Record<string, unknown>;
    };

    // No --crear: the database is the server's, and an empty one is migrated like a starting host migrates it.
    const owner = await admin('owner', 'create', '--name', 'Ana', '--email', 'ana@example.org', '--credits', '25');
    await admin('space', 'create', '--id', 'tienda', '--owner', String(owner.id), '--modules', 'api,marca');
    const key = await admin('key', 'create', '--owner', String(owner.id), '--name', 'web', '--limit', '3');
    assert.match(String(key.token), /^crb_/);
    assert.deepEqual(await admin('account', 'credits', '--id', String(owner.cuenta), '--amount', '5'), {
      cuenta: owner.cuenta,
      saldo: 30,
    });

    const space = await admin('space', 'show', '--id', 'tienda');
    assert.deepEqual(space.modulos, ['api', 'marca']);
    const keys = (await admin('key', 'list', '--owner', String(owner.id))) as { claves?: { id: string }[] };
    assert.deepEqual(
      keys.claves?.map((k) => k.id),
      [key.id],
    );
    const unknown = await runCaptured(
      ['admin', 'space', 'create', '--id', 'otra', '--owner', 'own_nadie', '--json'],
      env,
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /Propietario no encontrado/);

    const stored = await db.pool.query<{ n: number }>(
      "SELECT (SELECT count(*) FROM owners) + (SELECT count(*) FROM api_keys) + (SELECT count(*) FROM space_modules WHERE space_id = 'tienda') AS n",
    );
    assert.equal(stored.rows[0]?.n, 4, 'one owner, one key, two modules');
    const audited = await db.pool.query<{ action: string }>('SELECT action FROM audit_log ORDER BY seq');
    assert.deepEqual(
      audited.rows.map((r) => r.action),
      ['propietario.creado', 'espacio.creado', 'clave.creada', 'creditos.anadidos'],
    );
    assert.equal(existsSync(join(dataDir, 'cerebro.db')), false, 'no SQLite file opened');
  });
});

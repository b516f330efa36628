import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { definePlugin, type Migration } from '@cerebro/sdk';
import { startHost } from '@cerebro/host';

const withMigration = (migration: Migration) =>
  definePlugin({
    manifest: { id: 'notas', version: '1.0.0', sdk: '^1.0.0', title: 'Notas', routes: [], migrations: [migration] },
    setup: () => ({ handlers: {} }),
  });

async function tempDir(t: { after(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-refusal-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const config = (dataDir: string) => ({
  dataDir,
  port: 0,
  host: '127.0.0.1',
  logLevel: 'silent',
  discoverPlugins: false,
  bootstrapDemo: false,
});

test('a plugin migration edited after it was applied makes the host refuse to start, naming the plugin', async (t) => {
  const dataDir = await tempDir(t);
  const original = { id: '0001_notas', sql: 'CREATE TABLE notas_nota (id INTEGER PRIMARY KEY, texto TEXT);' };
  await (await startHost({ config: config(dataDir), plugins: [withMigration(original)] })).close();
  const tampered = { ...original, sql: original.sql.replace('texto TEXT', 'texto BLOB') };
  await assert.rejects(
    startHost({ config: config(dataDir), plugins: [withMigration(tampered)] }),
    (err: Error & { code?: string }) => {
      assert.equal(err.code, 'PLUGIN_MIGRATION');
      assert.match(err.message, /plugin "notas".*MIGRATION_TAMPERED/);
      return true;
    },
  );
});

test('a plugin migration creating tables outside its prefix is refused before anything runs', async (t) => {
  const dataDir = await tempDir(t);
  const foreign = { id: '0001_x', sql: 'CREATE TABLE api_keys_copia (id INTEGER);' };
  await assert.rejects(
    startHost({ config: config(dataDir), plugins: [withMigration(foreign)] }),
    /PLUGIN_MIGRATION.*notas_/,
  );
});

test('a database written by a newer Cerebro is refused with a clear message, and left untouched', async (t) => {
  const dataDir = await tempDir(t);
  await (await startHost({ config: config(dataDir) })).close();
  const db = new Database(join(dataDir, 'cerebro.db'));
  db.prepare(
    "INSERT INTO cerebro_migrations (owner, id, checksum, applied_at) VALUES ('host', '9999_futuro', 'x', 'now')",
  ).run();
  db.close();
  await assert.rejects(startHost({ config: config(dataDir) }), /DATABASE_NEWER_THAN_CODE.*más nueva que el código/);
  const check = new Database(join(dataDir, 'cerebro.db'), { readonly: true });
  assert.equal(
    (check.prepare("SELECT count(*) AS n FROM cerebro_migrations WHERE id = '9999_futuro'").get() as { n: number }).n,
    1,
  );
  check.close();
});

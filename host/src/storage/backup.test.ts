import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { backupDatabases } from './backup.js';
import { openDatabase } from './database.js';
import { migrateHostDatabase } from './migrate-host.js';

async function dataDir(t: { after(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-backup-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('a backup copies the host and every plugin database while a writer keeps them open, and refuses to overwrite', async (t) => {
  const dir = await dataDir(t);
  const host = openDatabase(join(dir, 'cerebro.db'));
  const plugin = openDatabase(join(dir, 'plugins', 'marca.db'));
  t.after(() => {
    host.close();
    plugin.close();
  });
  host.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('anfitrión')");
  plugin.exec("CREATE TABLE marca_t (v TEXT); INSERT INTO marca_t VALUES ('marca')");
  // Committed rows still only in the WAL: a plain file copy of cerebro.db alone would miss them.
  assert.ok(existsSync(join(dir, 'cerebro.db-wal')));

  const target = join(dir, 'copia');
  const result = await backupDatabases(dir, target);
  assert.deepEqual(result.bases, ['cerebro.db', join('plugins', 'marca.db')]);
  assert.ok(result.bytes > 0);
  const hostCopy = openDatabase(join(target, 'cerebro.db'));
  const pluginCopy = openDatabase(join(target, 'plugins', 'marca.db'));
  assert.deepEqual(hostCopy.prepare('SELECT v FROM t').pluck().all(), ['anfitrión']);
  assert.deepEqual(pluginCopy.prepare('SELECT v FROM marca_t').pluck().all(), ['marca']);
  hostCopy.close();
  pluginCopy.close();

  await assert.rejects(backupDatabases(dir, target), /ya existe/);
  await assert.rejects(backupDatabases(join(dir, 'vacía'), join(dir, 'otra')), /no hay bases de datos/);
  assert.deepEqual(
    (await readdir(dir)).filter((n) => n.includes('.tmp-')),
    [],
    'no temporary folder left',
  );
});

test('migrating a database that has data backs it up first; a new database or nothing pending takes no backup', async (t) => {
  const dir = await dataDir(t);
  const db = openDatabase(join(dir, 'cerebro.db'));
  t.after(() => db.close());
  const first = { id: '0001', sql: "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('antes')" };
  const second = { id: '0002', sql: 'ALTER TABLE t ADD COLUMN w TEXT' };
  const now = () => new Date('2026-01-02T03:04:05.678Z');

  const fresh = await migrateHostDatabase(db, dir, { owner: 'host', migrations: [first] }, now);
  assert.deepEqual([fresh.applied, fresh.backup], [['0001'], undefined]);
  const nothing = await migrateHostDatabase(db, dir, { owner: 'host', migrations: [first] }, now);
  assert.deepEqual([nothing.applied, nothing.backup], [[], undefined]);

  const upgrade = await migrateHostDatabase(db, dir, { owner: 'host', migrations: [first, second] }, now);
  assert.deepEqual(upgrade.applied, ['0002']);
  assert.equal(upgrade.backup?.carpeta, join(dir, 'respaldos', 'antes-de-migrar-2026-01-02T03-04-05-678Z'));
  const copy = openDatabase(join(upgrade.backup!.carpeta, 'cerebro.db'));
  t.after(() => copy.close());
  // The copy is the database as it was before the migration: without the new column.
  assert.deepEqual(copy.prepare("SELECT name FROM pragma_table_info('t')").pluck().all(), ['v']);
  assert.deepEqual(db.prepare("SELECT name FROM pragma_table_info('t')").pluck().all(), ['v', 'w']);
});

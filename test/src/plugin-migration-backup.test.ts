// An upgrade of a plugin that brings new migrations backs up every database first (same folder and layout as the
// backup before host migrations); a first install, or a start with nothing pending, takes none.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { definePlugin, HostServices, type Migration } from '@cerebro/sdk';
import { startHost } from '@cerebro/host';

/** The "notas" plugin at a given version: its migrations, and a route that stores a note. */
function notas(version: string, migrations: Migration[]) {
  return definePlugin({
    manifest: {
      id: 'notas',
      version,
      sdk: '^1.0.0',
      title: 'Notas',
      needs: [HostServices.Storage],
      migrations,
      routes: [
        {
          id: 'guardar',
          method: 'POST',
          path: '/notas',
          permission: 'escribe',
          summary: 'Guarda una nota',
          body: 'none',
        },
      ],
    },
    setup(scope) {
      const db = scope.resolve(HostServices.Storage);
      const add = db.prepare('INSERT INTO notas_texto (space_id, texto) VALUES (?, ?)');
      return {
        handlers: {
          guardar: (req) => {
            add.run(req.space.id, 'hola');
            return { ok: true };
          },
        },
      };
    },
  });
}

const V1: Migration[] = [
  { id: '0001_texto', sql: 'CREATE TABLE notas_texto (space_id TEXT NOT NULL, texto TEXT NOT NULL)' },
];
const V2: Migration[] = [
  ...V1,
  { id: '0002_fecha', sql: "ALTER TABLE notas_texto ADD COLUMN fecha TEXT NOT NULL DEFAULT ''" },
];

const backups = async (dataDir: string) =>
  existsSync(join(dataDir, 'respaldos')) ? (await readdir(join(dataDir, 'respaldos'))).sort() : [];

test('new plugin migrations on an existing plugin database are preceded by a backup of every database', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-plugin-backup-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const dataDir = join(root, 'data');
  const config = {
    dataDir,
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent' as const,
    bootstrapDemo: false,
    discoverPlugins: false,
  };

  // First install: the plugin's database is created by its migrations, nothing to back up.
  const first = await startHost({ config, plugins: [notas('1.0.0', V1)] });
  const owner = await first.admin.createOwner({ name: 'Ana' });
  await first.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['notas'] });
  const key = (await first.admin.issueKey(owner.id, 'k', [], 'escribe')).token;
  const res = await fetch(`${first.url}/api/mod/notas/uno/notas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(res.status, 200);
  await first.close();
  assert.deepEqual(await backups(dataDir), [], 'no backup on a first install');

  // Same version again: nothing pending, no backup.
  await (await startHost({ config, plugins: [notas('1.0.0', V1)] })).close();
  assert.deepEqual(await backups(dataDir), [], 'no backup when nothing is pending');

  // The upgrade: one backup, taken before 0002 ran.
  const upgraded = await startHost({ config, plugins: [notas('1.1.0', V2)] });
  await upgraded.close();
  const taken = await backups(dataDir);
  assert.equal(taken.length, 1);
  assert.match(taken[0]!, /^antes-de-migrar-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/);
  const folder = join(dataDir, 'respaldos', taken[0]!);
  assert.deepEqual((await readdir(folder)).sort(), ['cerebro.db', 'plugins'], 'the same layout as the data folder');
  const saved = new Database(join(folder, 'plugins', 'notas.db'), { readonly: true });
  try {
    const applied = saved
      .prepare("SELECT id FROM cerebro_migrations WHERE owner = 'plugin:notas' ORDER BY id")
      .all() as { id: string }[];
    assert.deepEqual(
      applied.map((r) => r.id),
      ['0001_texto'],
      'the backup is the database before the upgrade',
    );
    assert.deepEqual(saved.prepare('SELECT space_id, texto FROM notas_texto').all(), [
      { space_id: 'uno', texto: 'hola' },
    ]);
  } finally {
    saved.close();
  }
  const live = new Database(join(dataDir, 'plugins', 'notas.db'), { readonly: true });
  try {
    assert.equal(
      (live.prepare("SELECT count(*) AS n FROM cerebro_migrations WHERE owner = 'plugin:notas'").get() as { n: number })
        .n,
      2,
    );
  } finally {
    live.close();
  }

  // Another plugin installed later on the same data: its first migrations back nothing up.
  const counter = definePlugin({
    manifest: {
      id: 'otro',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Otro',
      migrations: [{ id: '0001', sql: 'CREATE TABLE otro_x (a TEXT)' }],
      routes: [],
    },
    setup: () => ({ handlers: {} }),
  });
  await (await startHost({ config, plugins: [notas('1.1.0', V2), counter] })).close();
  assert.equal((await backups(dataDir)).length, 1, "a new plugin's first migrations take no backup");
});

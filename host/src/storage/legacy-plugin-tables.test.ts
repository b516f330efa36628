import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase, type SqliteDatabase } from './database.js';
import { moveLegacyPluginTables } from './legacy-plugin-tables.js';
import { applyMigrations } from './migrator.js';
import { HOST_MIGRATIONS } from './migrations/index.js';

const OWNER = 'plugin:tienda';
const MIGRATIONS = [
  {
    id: '0001_base',
    sql: `CREATE TABLE tienda_clientes (id INTEGER PRIMARY KEY AUTOINCREMENT, nombre TEXT NOT NULL UNIQUE);
    CREATE TABLE tienda_pedidos (id INTEGER PRIMARY KEY, cliente INTEGER NOT NULL REFERENCES tienda_clientes(id), total INTEGER NOT NULL,
      doble INTEGER GENERATED ALWAYS AS (total * 2) VIRTUAL);
    CREATE INDEX tienda_pedidos_cliente ON tienda_pedidos (cliente);`,
  },
  {
    id: '0002_registro',
    sql: `CREATE TABLE tienda_registro (texto TEXT);
    CREATE TRIGGER tienda_pedido_nuevo AFTER INSERT ON tienda_pedidos BEGIN INSERT INTO tienda_registro VALUES ('pedido ' || NEW.id); END;
    CREATE VIEW tienda_resumen AS SELECT cliente, sum(total) AS total FROM tienda_pedidos GROUP BY cliente;
    CREATE VIRTUAL TABLE tienda_busqueda USING fts5(texto);`,
  },
];

interface Files {
  host: SqliteDatabase;
  plugin: SqliteDatabase;
  hostFile: string;
}

/** A host file seeded the way versions before one file per plugin left it: plugin tables beside the host's. */
function seededOldWay(t: { after(fn: () => unknown): void }): Files {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-legacy-'));
  const hostFile = join(dir, 'cerebro.db');
  const host = openDatabase(hostFile);
  const plugin = openDatabase(join(dir, 'plugins', 'tienda.db'));
  t.after(() => {
    host.close();
    plugin.close();
    rmSync(dir, { recursive: true, force: true });
  });
  host.exec('CREATE TABLE owners (id TEXT PRIMARY KEY)');
  host.prepare("INSERT INTO owners VALUES ('own_1')").run();
  applyMigrations(host, { owner: 'host', migrations: [{ id: '0001_core', sql: 'SELECT 1' }] });
  applyMigrations(host, { owner: OWNER, migrations: MIGRATIONS, tablePrefix: 'tienda_' });
  host.prepare("INSERT INTO tienda_clientes (nombre) VALUES ('Ana'), ('Luis')").run();
  host.prepare('INSERT INTO tienda_pedidos (id, cliente, total) VALUES (10, 1, 500), (11, 2, 700), (12, 1, 100)').run();
  host.prepare("INSERT INTO tienda_busqueda (texto) VALUES ('zapatos rojos'), ('bolso azul')").run();
  return { host, plugin, hostFile };
}

const names = (db: SqliteDatabase, like: string): string[] =>
  (
    db.prepare('SELECT name FROM sqlite_master WHERE name LIKE ? AND sql IS NOT NULL ORDER BY name').all(like) as {
      name: string;
    }[]
  ).map((r) => r.name);

function assertMovedIntact(f: Files): void {
  const { plugin, host } = f;
  assert.deepEqual(plugin.prepare('SELECT id, nombre FROM tienda_clientes ORDER BY id').all(), [
    { id: 1, nombre: 'Ana' },
    { id: 2, nombre: 'Luis' },
  ]);
  assert.deepEqual(plugin.prepare('SELECT cliente, total FROM tienda_resumen ORDER BY cliente').all(), [
    { cliente: 1, total: 600 },
    { cliente: 2, total: 700 },
  ]);
  assert.equal(
    (plugin.prepare('SELECT doble FROM tienda_pedidos WHERE id = 11').get() as { doble: number }).doble,
    1400,
  );
  assert.deepEqual(plugin.prepare("SELECT texto FROM tienda_busqueda WHERE tienda_busqueda MATCH 'bolso'").all(), [
    { texto: 'bolso azul' },
  ]);
  // The trigger's old rows came along once (it did not fire on the copy) and it fires on new rows;
  // AUTOINCREMENT continues after the copied ids.
  const log = () =>
    (plugin.prepare('SELECT texto FROM tienda_registro ORDER BY rowid').all() as { texto: string }[]).map(
      (r) => r.texto,
    );
  assert.deepEqual(log(), ['pedido 10', 'pedido 11', 'pedido 12']);
  plugin.prepare('INSERT INTO tienda_pedidos (id, cliente, total) VALUES (13, 2, 1)').run();
  assert.deepEqual(log(), ['pedido 10', 'pedido 11', 'pedido 12', 'pedido 13']);
  assert.equal(Number(plugin.prepare("INSERT INTO tienda_clientes (nombre) VALUES ('Eva')").run().lastInsertRowid), 3);
  assert.ok(names(plugin, 'tienda_pedidos_cliente').length === 1, 'indexes move too');
  assert.deepEqual(plugin.prepare('SELECT id FROM cerebro_migrations WHERE owner = ? ORDER BY id').all(OWNER), [
    { id: '0001_base' },
    { id: '0002_registro' },
  ]);
  // Nothing of the plugin is left in the host file; the host's own data is untouched.
  assert.deepEqual(names(host, 'tienda%'), []);
  assert.equal(
    (host.prepare('SELECT count(*) AS n FROM cerebro_migrations WHERE owner = ?').get(OWNER) as { n: number }).n,
    0,
  );
  assert.deepEqual(host.prepare('SELECT id FROM owners').all(), [{ id: 'own_1' }]);
  assert.equal(
    (host.prepare("SELECT count(*) AS n FROM cerebro_migrations WHERE owner = 'host'").get() as { n: number }).n,
    1,
  );
}

test('an installation seeded the old way has its plugin tables, rows and migration records moved to the plugin file', (t) => {
  const f = seededOldWay(t);
  const move = moveLegacyPluginTables(f.plugin, f.hostFile, OWNER, 'tienda_');
  assert.deepEqual(move.copied, ['tienda_clientes', 'tienda_pedidos', 'tienda_registro', 'tienda_busqueda']);
  assertMovedIntact(f);
  // The plugin's migrations then verify against the moved records: nothing pending, nothing tampered.
  assert.deepEqual(applyMigrations(f.plugin, { owner: OWNER, migrations: MIGRATIONS, tablePrefix: 'tienda_' }), []);
  assert.deepEqual(
    moveLegacyPluginTables(f.plugin, f.hostFile, OWNER, 'tienda_'),
    { copied: [], dropped: [] },
    'a second start has nothing to move',
  );
});

test('a crash after the copy and before the drop is finished on the next start without copying twice', (t) => {
  const f = seededOldWay(t);
  moveLegacyPluginTables(f.plugin, f.hostFile, OWNER, 'tienda_');
  // Put the stale copies back in the host file, as if the process died between the two transactions.
  const stale = seededOldWay(t);
  stale.host.close();
  f.host.exec(`ATTACH DATABASE '${stale.hostFile.replace(/'/g, "''")}' AS viejo`);
  f.host.exec(`CREATE TABLE tienda_clientes (id INTEGER PRIMARY KEY AUTOINCREMENT, nombre TEXT NOT NULL UNIQUE);
    INSERT INTO tienda_clientes SELECT * FROM viejo.tienda_clientes;
    INSERT INTO cerebro_migrations SELECT * FROM viejo.cerebro_migrations WHERE owner = '${OWNER}';`);
  f.host.exec('DETACH DATABASE viejo');

  const move = moveLegacyPluginTables(f.plugin, f.hostFile, OWNER, 'tienda_');
  assert.deepEqual(move, { copied: [], dropped: ['tienda_clientes'] });
  assertMovedIntact(f);
});

test('a host file without anything of the plugin is left alone', (t) => {
  const f = seededOldWay(t);
  assert.deepEqual(moveLegacyPluginTables(f.plugin, f.hostFile, 'plugin:otro', 'otro_'), { copied: [], dropped: [] });
  assert.equal(names(f.host, 'tienda%').length > 0, true);
});

test('a plugin whose prefix matches host tables (`space_` and `space_modules`) moves only its own tables', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-legacy-'));
  const hostFile = join(dir, 'cerebro.db');
  const host = openDatabase(hostFile);
  const plugin = openDatabase(join(dir, 'plugins', 'space.db'));
  t.after(() => {
    host.close();
    plugin.close();
    rmSync(dir, { recursive: true, force: true });
  });
  applyMigrations(host, { owner: 'host', migrations: HOST_MIGRATIONS });
  applyMigrations(host, {
    owner: 'plugin:space',
    migrations: [{ id: '0001', sql: 'CREATE TABLE space_notas (texto TEXT)' }],
    tablePrefix: 'space_',
  });

  assert.deepEqual(moveLegacyPluginTables(plugin, hostFile, 'plugin:space', 'space_').copied, ['space_notas']);
  assert.deepEqual(names(host, 'space%'), ['space_modules', 'spaces', 'spaces_owner']);
  assert.deepEqual(names(plugin, 'space%'), ['space_notas']);
});

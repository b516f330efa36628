import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from './database.js';
import { applyMigrations, MigrationError, touchedObjects } from './migrator.js';

const v1 = { id: '0001_a', sql: 'CREATE TABLE demo_a (id INTEGER PRIMARY KEY);' };
const v2 = { id: '0002_b', sql: 'CREATE TABLE demo_b (id INTEGER PRIMARY KEY); CREATE INDEX demo_b_id ON demo_b(id);' };

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof MigrationError, `expected MigrationError, got ${String(err)}`);
    return err.code;
  }
  assert.fail('expected the migration run to be refused');
};

test('a fresh database gets every migration, in order, recorded with its checksum', () => {
  const db = openDatabase(':memory:');
  assert.deepEqual(applyMigrations(db, { owner: 'demo', migrations: [v1, v2] }), ['0001_a', '0002_b']);
  const rows = db
    .prepare('SELECT id, length(checksum) AS len FROM cerebro_migrations WHERE owner = ? ORDER BY id')
    .all('demo');
  assert.deepEqual(rows, [
    { id: '0001_a', len: 64 },
    { id: '0002_b', len: 64 },
  ]);
});

test('re-running applies nothing and keeps the data; a new migration is applied on top', () => {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'demo', migrations: [v1] });
  db.prepare('INSERT INTO demo_a (id) VALUES (7)').run();
  assert.deepEqual(applyMigrations(db, { owner: 'demo', migrations: [v1] }), []);
  assert.deepEqual(applyMigrations(db, { owner: 'demo', migrations: [v1, v2] }), ['0002_b']);
  assert.deepEqual(db.prepare('SELECT id FROM demo_a').all(), [{ id: 7 }]);
});

test('a migration edited after it was applied is refused (MIGRATION_TAMPERED) and nothing runs', () => {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'demo', migrations: [v1] });
  const tampered = { ...v1, sql: v1.sql.replace('INTEGER PRIMARY KEY', 'TEXT PRIMARY KEY') };
  assert.equal(
    codeOf(() => applyMigrations(db, { owner: 'demo', migrations: [tampered, v2] })),
    'MIGRATION_TAMPERED',
  );
  assert.equal(
    (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'demo_b'").get() as { n: number }).n,
    0,
  );
});

test('a database with migrations the code does not know is refused as newer than the code', () => {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'demo', migrations: [v1, v2] });
  assert.equal(
    codeOf(() => applyMigrations(db, { owner: 'demo', migrations: [v1] })),
    'DATABASE_NEWER_THAN_CODE',
  );
});

test('owners are independent: the same ids under another owner are separate histories', () => {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'uno', migrations: [v1] });
  assert.deepEqual(
    applyMigrations(db, { owner: 'dos', migrations: [{ id: '0001_a', sql: 'CREATE TABLE dos_x (id INTEGER);' }] }),
    ['0001_a'],
  );
});

test('out-of-order ids and objects outside the owner prefix are refused before anything runs', () => {
  const db = openDatabase(':memory:');
  assert.equal(
    codeOf(() => applyMigrations(db, { owner: 'demo', migrations: [v2, v1] })),
    'MIGRATION_ORDER',
  );
  const foreign = { id: '0001_x', sql: 'CREATE TABLE IF NOT EXISTS api_keys (x INTEGER); DROP TABLE owners;' };
  assert.equal(
    codeOf(() => applyMigrations(db, { owner: 'plugin:demo', migrations: [foreign], tablePrefix: 'demo_' })),
    'MIGRATION_NAMESPACE',
  );
  assert.deepEqual(touchedObjects(foreign.sql), ['api_keys', 'owners']);
});

test('a failing migration leaves neither its tables nor its ledger row', () => {
  const db = openDatabase(':memory:');
  const broken = { id: '0001_roto', sql: 'CREATE TABLE demo_ok (id INTEGER); CREATE TABLE demo_ok (id INTEGER);' };
  assert.equal(
    codeOf(() => applyMigrations(db, { owner: 'demo', migrations: [broken] })),
    'MIGRATION_FAILED',
  );
  assert.equal(
    (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'demo_ok'").get() as { n: number }).n,
    0,
  );
  assert.equal((db.prepare('SELECT count(*) AS n FROM cerebro_migrations').get() as { n: number }).n, 0);
});

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

test('processes migrating one new file at once each apply what the other has not, and none fails', async () => {
  const { Worker } = await import('node:worker_threads');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-migrate-race-'));
  // Many small migrations, so the two runs interleave between them; each connection on its own thread, as two
  // processes would, released at the same instant by a shared flag.
  const migrations = Array.from({ length: 40 }, (_, i) => ({
    id: `${String(i + 1).padStart(4, '0')}_t`,
    sql: `CREATE TABLE race_${i} (id INTEGER PRIMARY KEY); INSERT INTO race_${i} (id) VALUES (1);`,
  }));
  const body = `
    const { workerData, parentPort } = require('node:worker_threads');
    (async () => {
      const { openDatabase } = await import(workerData.database);
      const { applyMigrations } = await import(workerData.migrator);
      const db = openDatabase(workerData.file);
      Atomics.wait(new Int32Array(workerData.gate), 0, 0);
      try {
        parentPort.postMessage({ applied: applyMigrations(db, { owner: 'race', migrations: workerData.migrations }) });
      } catch (err) {
        parentPort.postMessage({ error: String(err) });
      } finally {
        db.close();
      }
    })();`;
  try {
    for (let round = 0; round < 5; round++) {
      const file = join(dir, `r${round}.db`);
      const gate = new SharedArrayBuffer(4);
      const workerData = {
        file,
        gate,
        migrations,
        database: new URL('./database.js', import.meta.url).href,
        migrator: new URL('./migrator.js', import.meta.url).href,
      };
      const runs = Array.from({ length: 3 }, () => new Worker(body, { eval: true, workerData }));
      const answers = runs.map(
        (w) =>
          new Promise<{ applied?: string[]; error?: string }>((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
          }),
      );
      await new Promise((r) => setTimeout(r, 200)); // every thread waits at the gate
      Atomics.store(new Int32Array(gate), 0, 1);
      Atomics.notify(new Int32Array(gate), 0);
      const results = await Promise.all(answers);
      await Promise.all(runs.map((w) => w.terminate()));
      for (const r of results) assert.equal(r.error, undefined, r.error);
      const everyApplied = results.flatMap((r) => r.applied!).sort();
      assert.deepEqual(
        everyApplied,
        migrations.map((m) => m.id),
        'each migration applied by exactly one run',
      );
      const db = openDatabase(file);
      assert.equal(
        (db.prepare("SELECT count(*) AS n FROM cerebro_migrations WHERE owner = 'race'").get() as { n: number }).n,
        40,
      );
      assert.equal((db.prepare('SELECT count(*) AS n FROM race_39').get() as { n: number }).n, 1);
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

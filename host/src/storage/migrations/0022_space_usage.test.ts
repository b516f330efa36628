import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../database.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from './index.js';

test("0022 counts the documents already stored in each space's usage, and its triggers follow later writes", () => {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS.filter((m) => m.id < '0022') });
  const insert =
    db.prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, bytes, path, state, created_at, updated_at, queued_at)
    VALUES (?, ?, ?, 'text/plain', ?, ?, 'ready', '', '', '')`);
  for (const [space, id, bytes] of [
    ['a', 'd1', 10],
    ['a', 'd2', 32],
    ['b', 'd3', 5],
  ] as const)
    insert.run(space, id, `${id}.txt`, bytes, `${id}.txt`);
  const upTo0022 = HOST_MIGRATIONS.filter((m) => m.id < '0023');
  assert.deepEqual(applyMigrations(db, { owner: 'host', migrations: upTo0022 }), ['0022_space_usage']);
  const usage = () => db.prepare('SELECT space, bytes, documents FROM cerebro_space_usage ORDER BY space').all();
  assert.deepEqual(usage(), [
    { space: 'a', bytes: 42, documents: 2 },
    { space: 'b', bytes: 5, documents: 1 },
  ]);
  insert.run('b', 'd4', 'd4.txt', 7, 'd4.txt');
  db.prepare(`DELETE FROM cerebro_documents WHERE id = 'd1'`).run();
  assert.deepEqual(usage(), [
    { space: 'a', bytes: 32, documents: 1 },
    { space: 'b', bytes: 12, documents: 2 },
  ]);
  db.close();
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { preparedOnUse } from './prepared-on-use.js';

test('a statement is prepared at its first read, once, and the same one is read after', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  const made: string[] = [];
  const stmts = preparedOnUse({
    insert: () => {
      made.push('insert');
      return db.prepare<[number]>('INSERT INTO t (n) VALUES (?)');
    },
    count: () => {
      made.push('count');
      return db.prepare<[], number>('SELECT count(*) FROM t').pluck();
    },
  });
  assert.deepEqual(made, [], 'nothing prepared by making the object');
  stmts.insert.run(1);
  stmts.insert.run(2);
  assert.deepEqual(made, ['insert']);
  assert.equal(stmts.insert, stmts.insert);
  assert.equal(stmts.count.get(), 2);
  assert.deepEqual(made, ['insert', 'count']);
  assert.deepEqual(Object.keys(stmts), ['insert', 'count'], 'one enumerable property per statement, in order');
  db.close();
});

test('a statement that fails to prepare throws at its use, and again at the next (nothing half-made is kept)', () => {
  const db = new Database(':memory:');
  const stmts = preparedOnUse({ broken: () => db.prepare('SELECT * FROM missing_table') });
  assert.throws(() => stmts.broken, /no such table/);
  assert.throws(() => stmts.broken, /no such table/);
  db.exec('CREATE TABLE missing_table (n INTEGER)');
  assert.deepEqual(stmts.broken.all(), [], 'prepared once the table exists');
  db.close();
});

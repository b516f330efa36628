import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../database.js';
import { inWriteTransaction } from './write-transaction.js';

async function twoConnections(t: { after(fn: () => unknown): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-write-tx-'));
  const a = openDatabase(join(dir, 'x.db'));
  const b = openDatabase(join(dir, 'x.db'));
  a.exec('CREATE TABLE t (v TEXT)');
  t.after(async () => {
    a.close();
    b.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { a, b };
}

const count = (db: ReturnType<typeof openDatabase>) => db.prepare('SELECT count(*) FROM t').pluck().get() as number;

test('work across awaits, with nested transactions, commits as one: another connection sees none of it before', async (t) => {
  const { a, b } = await twoConnections(t);
  const result = await inWriteTransaction(a, async () => {
    a.prepare('INSERT INTO t VALUES (?)').run('uno');
    await new Promise((r) => setTimeout(r, 5));
    // A repository's own transaction becomes a savepoint of this one.
    a.transaction(() => a.prepare('INSERT INTO t VALUES (?)').run('dos')).immediate();
    assert.equal(count(b), 0, 'nothing visible before the commit');
    return 'hecho';
  });
  assert.equal(result, 'hecho');
  assert.equal(count(b), 2);
});

test('an error anywhere rolls all of it back, and the connection is usable again', async (t) => {
  const { a, b } = await twoConnections(t);
  await assert.rejects(
    inWriteTransaction(a, async () => {
      a.prepare('INSERT INTO t VALUES (?)').run('uno');
      await new Promise((r) => setImmediate(r));
      a.transaction(() => a.prepare('INSERT INTO t VALUES (?)').run('dos')).immediate();
      throw new Error('caída a mitad');
    }),
    /caída a mitad/,
  );
  assert.equal(a.inTransaction, false);
  assert.deepEqual([count(a), count(b)], [0, 0]);
  await inWriteTransaction(a, async () => a.prepare('INSERT INTO t VALUES (?)').run('otra vez'));
  assert.equal(count(b), 1);
});

test('it holds the write lock from the start: another connection cannot write until it ends', async (t) => {
  const { a, b } = await twoConnections(t);
  b.pragma('busy_timeout = 0');
  await inWriteTransaction(a, async () => {
    assert.throws(() => b.prepare('INSERT INTO t VALUES (?)').run('b'), /locked|busy/i);
  });
  b.prepare('INSERT INTO t VALUES (?)').run('b');
  assert.equal(count(a), 1);
});

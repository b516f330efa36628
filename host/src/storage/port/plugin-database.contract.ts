// Behaviour every implementation of the sdk's `PluginDatabase` must show (SQLite today, PostgreSQL with issue #25):
// bound parameters, rows and counts, RETURNING, and transactions that commit, roll back and keep to themselves.
// Only portable SQL is used here, the same text a plugin would write.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SqlMisuseError, type PluginDatabase } from '@cerebro/sdk';

export interface PluginDatabaseUnderTest {
  /** A database whose `tablePrefix` is `contrato_`, empty. */
  db: PluginDatabase;
  close(): Promise<void>;
}

const CREATE = 'CREATE TABLE contrato_items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER NOT NULL)';
const INSERT = 'INSERT INTO contrato_items (id, name, n) VALUES (?, ?, ?)';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function pluginDatabaseContract(name: string, make: () => Promise<PluginDatabaseUnderTest>): void {
  const withTable = async (t: { after(fn: () => Promise<void>): void }): Promise<PluginDatabase> => {
    const subject = await make();
    t.after(() => subject.close());
    await subject.db.execute(CREATE);
    return subject.db;
  };
  const names = async (db: PluginDatabase) =>
    (await db.query<{ name: string }>('SELECT name FROM contrato_items ORDER BY id')).map((r) => r.name);

  test(`${name}: parameters are bound as values, never read as SQL`, async (t) => {
    const db = await withTable(t);
    const hostile = "x'); DROP TABLE contrato_items; --";
    await db.execute(INSERT, [1, hostile, 0]);
    assert.deepEqual(await db.query('SELECT name FROM contrato_items WHERE name = ?', [hostile]), [{ name: hostile }]);
    assert.equal(db.tablePrefix, 'contrato_');
  });

  test(`${name}: query gives rows in order with numbers as numbers; queryOne the first or undefined`, async (t) => {
    const db = await withTable(t);
    for (const [id, n] of [
      [3, 30],
      [1, 10],
      [2, 20],
    ] as const) {
      await db.execute(INSERT, [id, `item-${id}`, n]);
    }
    const rows = await db.query<{ id: number; n: number }>('SELECT id, n FROM contrato_items ORDER BY n DESC');
    assert.deepEqual(rows, [
      { id: 3, n: 30 },
      { id: 2, n: 20 },
      { id: 1, n: 10 },
    ]);
    assert.deepEqual(await db.queryOne('SELECT name FROM contrato_items WHERE id = ?', [2]), { name: 'item-2' });
    assert.equal(await db.queryOne('SELECT name FROM contrato_items WHERE id = ?', [99]), undefined);
    assert.deepEqual(await db.query('SELECT name FROM contrato_items WHERE n > ?', [100]), []);
    assert.deepEqual(
      await db.queryOne('SELECT name, n FROM contrato_items WHERE name IS NOT ? AND n = ?', [null, 20]),
      {
        name: 'item-2',
        n: 20,
      },
    );
  });

  test(`${name}: execute counts the rows it changed; RETURNING gives them back through query`, async (t) => {
    const db = await withTable(t);
    await db.execute(INSERT, [1, 'a', 1]);
    await db.execute(INSERT, [2, 'b', 2]);
    assert.deepEqual(await db.execute('UPDATE contrato_items SET n = n + 1'), { changes: 2 });
    assert.deepEqual(await db.execute('DELETE FROM contrato_items WHERE id = ?', [42]), { changes: 0 });
    const returned = await db.query<{ id: number; n: number }>(
      'UPDATE contrato_items SET n = n * 10 WHERE id = ? RETURNING id, n',
      [2],
    );
    assert.deepEqual(returned, [{ id: 2, n: 30 }]);
  });

  test(`${name}: a failing statement rejects and leaves the handle usable`, async (t) => {
    const db = await withTable(t);
    await db.execute(INSERT, [1, 'a', 1]);
    await assert.rejects(db.execute(INSERT, [2, 'a', 2])); // UNIQUE (name)
    await assert.rejects(db.query('SELECT nope FROM contrato_items'));
    assert.deepEqual(await names(db), ['a']);
  });

  test(`${name}: a transaction commits when its callback resolves, with the callback's value`, async (t) => {
    const db = await withTable(t);
    const value = await db.transaction(async (tx) => {
      await tx.execute(INSERT, [1, 'a', 1]);
      await later(5);
      await tx.execute(INSERT, [2, 'b', 2]);
      assert.deepEqual(await tx.query<{ name: string }>('SELECT name FROM contrato_items ORDER BY id'), [
        { name: 'a' },
        { name: 'b' },
      ]);
      return 'hecho';
    });
    assert.equal(value, 'hecho');
    assert.deepEqual(await names(db), ['a', 'b']);
  });

  test(`${name}: a transaction rolls back every statement when its callback throws, and rethrows`, async (t) => {
    const db = await withTable(t);
    await db.execute(INSERT, [1, 'a', 1]);
    const failure = new Error('a mitad');
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.execute(INSERT, [2, 'b', 2]);
        await tx.execute('UPDATE contrato_items SET n = 100');
        await later(5);
        throw failure;
      }),
      (err) => err === failure,
    );
    assert.deepEqual(await db.query('SELECT id, n FROM contrato_items ORDER BY id'), [{ id: 1, n: 1 }]);
    // A statement error inside the callback, not caught there, rolls back the same way.
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.execute(INSERT, [3, 'c', 3]);
        await tx.execute(INSERT, [4, 'a', 4]); // UNIQUE (name)
      }),
    );
    assert.deepEqual(await names(db), ['a']);
  });

  test(`${name}: statements outside an open transaction neither see its writes nor roll back with it`, async (t) => {
    const db = await withTable(t);
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const rolledBack = db.transaction(async (tx) => {
      await tx.execute(INSERT, [1, 'dentro', 1]);
      entered();
      await later(20);
      throw new Error('deshacer');
    });
    await inside;
    // Another request on the handle (from outside the callback) while the transaction awaits.
    const outsideWrite = db.execute(INSERT, [2, 'fuera', 2]);
    const seenOutside = names(db);
    await assert.rejects(rolledBack, /deshacer/);
    await outsideWrite;
    assert.equal((await seenOutside).includes('dentro'), false, 'an uncommitted write was visible outside');
    assert.deepEqual(await names(db), ['fuera']);
  });

  test(`${name}: concurrent transactions each apply whole; one-statement increments lose nothing`, async (t) => {
    const db = await withTable(t);
    await db.execute(INSERT, [1, 'contador', 0]);
    const runs = Array.from({ length: 8 }, (_, i) =>
      db.transaction(async (tx) => {
        await tx.execute('UPDATE contrato_items SET n = n + 1 WHERE id = ?', [1]);
        await later(1);
        await tx.execute(INSERT, [100 + i, `fila-${i}`, i]);
        if (i % 2 === 1) throw new Error(`impar ${i}`);
      }),
    );
    const settled = await Promise.allSettled(runs);
    assert.equal(settled.filter((s) => s.status === 'fulfilled').length, 4);
    assert.deepEqual(await db.queryOne('SELECT n FROM contrato_items WHERE id = ?', [1]), { n: 4 });
    const rows = await db.query<{ name: string }>('SELECT name FROM contrato_items WHERE id >= ? ORDER BY id', [100]);
    assert.deepEqual(
      rows.map((r) => r.name),
      ['fila-0', 'fila-2', 'fila-4', 'fila-6'],
    );
  });

  test(`${name}: the handle inside its own transaction and a tx after its end are refused`, async (t) => {
    const db = await withTable(t);
    let leaked: Parameters<Parameters<PluginDatabase['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      leaked = tx;
      await assert.rejects(db.query('SELECT 1 AS uno'), SqlMisuseError);
      await assert.rejects(
        db.transaction(async () => undefined),
        SqlMisuseError,
      );
      await tx.execute(INSERT, [1, 'a', 1]);
    });
    await assert.rejects(leaked!.execute(INSERT, [2, 'b', 2]), SqlMisuseError);
    assert.deepEqual(await names(db), ['a']);
  });
}

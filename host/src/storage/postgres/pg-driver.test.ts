// A transaction joined from inside another (a refund written by the ledger inside the idempotency repository's
// claim): one commit or one rollback for both, on one connection.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { inTransaction, pgQuery } from './pg-driver.js';
import { bootstrapOnce } from './pg-migrator.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;

describe('PostgreSQL transactions joined by nested writes', { skip }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase(3);
    await db.pool.query('CREATE TABLE moves (id TEXT PRIMARY KEY)');
  });
  after(async () => {
    await db?.drop();
  });
  const ids = async () =>
    (await db.pool.query<{ id: string }>('SELECT id FROM moves ORDER BY id')).rows.map((r) => r.id);

  test('writes nested in a transaction commit with it, on its connection', async () => {
    const seen = await inTransaction(db.pool, async (client) => {
      await client.query("INSERT INTO moves VALUES ('a')");
      await inTransaction(db.pool, (inner) => inner.query("INSERT INTO moves VALUES ('b')"));
      await pgQuery(db.pool, "INSERT INTO moves VALUES ('c')");
      // Another connection does not see them yet: they are in this transaction.
      return (await db.pool.query('SELECT count(*) AS n FROM moves')).rows[0].n as number;
    });
    assert.equal(seen, 0);
    assert.deepEqual(await ids(), ['a', 'b', 'c']);
  });

  test('the outer rollback undoes the nested writes; a failed nested one alone is undone', async () => {
    await assert.rejects(
      inTransaction(db.pool, async () => {
        await pgQuery(db.pool, "INSERT INTO moves VALUES ('d')");
        throw new Error('después de escribir');
      }),
    );
    await inTransaction(db.pool, async (client) => {
      await client.query("INSERT INTO moves VALUES ('e')");
      await assert.rejects(
        inTransaction(db.pool, async (inner) => {
          await inner.query("INSERT INTO moves VALUES ('f')");
          await inner.query("INSERT INTO moves VALUES ('a')");
        }),
      );
    });
    assert.deepEqual(await ids(), ['a', 'b', 'c', 'e']);
  });

  test('a first-start step commits or rolls back together with the repositories it calls', async () => {
    const step = (fail: boolean) =>
      bootstrapOnce(db.pool, 'primer-arranque', async () => {
        await inTransaction(db.pool, (client) => client.query("INSERT INTO moves VALUES ('g')"));
        if (fail) throw new Error('a medias');
      });
    await assert.rejects(step(true), /a medias/);
    assert.deepEqual(await ids(), ['a', 'b', 'c', 'e'], 'nothing of the failed step stays');
    assert.equal(await step(false), true);
    assert.equal(await step(false), false, 'once');
    assert.deepEqual(await ids(), ['a', 'b', 'c', 'e', 'g']);
  });
});

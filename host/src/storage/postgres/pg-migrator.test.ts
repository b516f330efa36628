import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HOST_MIGRATIONS } from '../migrations/index.js';
import { MigrationError } from '../migrator.js';
import { PG_HOST_MIGRATIONS } from './migrations/index.js';
import { createPgPool } from './pg-driver.js';
import { applyPgMigrations, bootstrapOnce } from './pg-migrator.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;
const HOST = { owner: 'host', migrations: PG_HOST_MIGRATIONS };

test('every SQLite host migration has a PostgreSQL twin with the same id, in the same order', () => {
  const missing = HOST_MIGRATIONS.map((m) => m.id).filter((id) => !PG_HOST_MIGRATIONS.some((p) => p.id === id));
  assert.deepEqual(
    missing,
    [],
    `migraciones de SQLite sin gemela en storage/postgres/migrations: ${missing.join(', ')}`,
  );
  assert.deepEqual(
    PG_HOST_MIGRATIONS.map((m) => m.id),
    HOST_MIGRATIONS.map((m) => m.id),
  );
});

describe('PostgreSQL migrations', { skip }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase(12);
  });
  after(async () => {
    await db?.drop();
  });

  test('four hosts starting at once on a fresh database: each migration applied exactly once, no error', async () => {
    const pools = await Promise.all([1, 2, 3, 4].map(() => createPgPool(db.url, { max: 2 })));
    try {
      const results = await Promise.all(pools.map((pool) => applyPgMigrations(pool, [HOST])));
      const applied = results.flatMap((r) => r.host ?? []);
      assert.deepEqual(
        applied.sort(),
        PG_HOST_MIGRATIONS.map((m) => m.id).sort(),
        'each migration applied by exactly one of the four',
      );
      const ledger = await db.pool.query('SELECT id, count(*) AS n FROM cerebro_migrations GROUP BY id');
      assert.equal(ledger.rowCount, PG_HOST_MIGRATIONS.length);
      assert.ok(ledger.rows.every((r) => r.n === 1));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  test('the schema has the SQLite tables, their columns and the triggers that follow a removed document', async () => {
    const tables = await db.pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const names = new Set(tables.rows.map((r) => r.table_name));
    for (const t of [
      'owners',
      'accounts',
      'cerebro_documents',
      'cerebro_passages',
      'webhook_attempts',
      'limit_windows',
    ]) {
      assert.ok(names.has(t), t);
    }
    await db.pool.query(`INSERT INTO cerebro_documents (space, id, name, media_type, path, state, created_at, updated_at, queued_at)
      VALUES ('e', 'd', 'n', 'text/plain', 'p', 'ready', 'x', 'x', 'x')`);
    await db.pool.query(`INSERT INTO cerebro_document_labels (space, document_id, updated_at) VALUES ('e', 'd', 'x')`);
    await db.pool.query(
      `INSERT INTO cerebro_document_origins (space, document_id, module, fetched_at) VALUES ('e', 'd', 'fuentes', 'x')`,
    );
    await db.pool.query(`DELETE FROM cerebro_documents WHERE space = 'e' AND id = 'd'`);
    const left = await db.pool.query(
      `SELECT (SELECT count(*) FROM cerebro_document_labels) + (SELECT count(*) FROM cerebro_document_origins) AS n`,
    );
    assert.equal(left.rows[0].n, 0);
    const id = await db.pool.query(
      `INSERT INTO credit_movements (account_id, delta, balance_after, reason, created_at)
       SELECT 'a', 1, 1, 'r', 'x' WHERE false RETURNING id`,
    );
    assert.equal(id.rowCount, 0);
  });

  test('a migration edited after it was applied stops the start, and nothing is applied', async () => {
    const edited = PG_HOST_MIGRATIONS.map((m) => (m.id === '0003_rag' ? { ...m, sql: `${m.sql}\n-- editada` } : m));
    await assert.rejects(
      applyPgMigrations(db.pool, [{ owner: 'host', migrations: edited }]),
      (err: unknown) => err instanceof MigrationError && err.code === 'MIGRATION_TAMPERED',
    );
  });

  test('a database migrated by newer code stops the start', async () => {
    await assert.rejects(
      applyPgMigrations(db.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS.slice(0, -1) }]),
      (err: unknown) => err instanceof MigrationError && err.code === 'DATABASE_NEWER_THAN_CODE',
    );
  });

  test('a failing migration is rolled back with its ledger row, and named', async () => {
    const broken = {
      owner: 'roto',
      migrations: [{ id: '0001_x', sql: 'CREATE TABLE roto_a (x INT); SELECT no_such_column FROM roto_a;' }],
    };
    await assert.rejects(applyPgMigrations(db.pool, [broken]), /0001_x/);
    const left = await db.pool.query(
      "SELECT to_regclass('roto_a') AS t, (SELECT count(*) FROM cerebro_migrations WHERE owner = 'roto') AS n",
    );
    assert.equal(left.rows[0].t, null);
    assert.equal(left.rows[0].n, 0);
  });

  test('the first-start step runs once however many hosts start together, and again after a failed attempt', async () => {
    await db.pool.query('CREATE TABLE boot_runs (at TEXT)');
    const pools = await Promise.all([1, 2, 3, 4].map(() => createPgPool(db.url, { max: 2 })));
    try {
      await assert.rejects(
        bootstrapOnce(pools[0]!, 'demo', async (client) => {
          await client.query("INSERT INTO boot_runs VALUES ('fallida')");
          throw new Error('caída a medias');
        }),
        /caída a medias/,
      );
      const ran = await Promise.all(
        pools.map((pool) =>
          bootstrapOnce(pool, 'demo', async (client) => {
            const seen = await client.query('SELECT count(*) AS n FROM boot_runs');
            await new Promise((r) => setTimeout(r, 50));
            await client.query('INSERT INTO boot_runs VALUES ($1)', [`tras ${seen.rows[0].n}`]);
          }),
        ),
      );
      assert.equal(ran.filter(Boolean).length, 1);
      const rows = await db.pool.query('SELECT at FROM boot_runs');
      assert.deepEqual(
        rows.rows.map((r) => r.at),
        ['tras 0'],
      );
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});

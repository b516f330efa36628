// The PostgreSQL schema is the SQLite one: after every host migration, the same tables with the same columns, the
// same NOT NULL columns and primary keys (FTS5's virtual tables aside: on PostgreSQL the engine's own index tables).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { HOST_MIGRATIONS } from '../migrations/index.js';
import { applyMigrations } from '../migrator.js';
import { PG_HOST_MIGRATIONS } from './migrations/index.js';
import { applyPgMigrations } from './pg-migrator.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;

/** SQLite tables that are FTS5's (the virtual table, its vocabulary and shadow tables). */
const FTS5_OWN = /^cerebro_fts(_|$)/;
/** Their PostgreSQL replacement (postgres/migrations/0002_cerebro.ts). */
const PG_INDEX_TABLES = new Set(['cerebro_fts_rows', 'cerebro_fts_postings', 'cerebro_fts_totals']);

interface Column {
  notNull: boolean;
  pk: boolean;
}

let pg: TestDatabase | undefined;
before(async () => {
  if (skip) return;
  pg = await createTestDatabase(2);
  await applyPgMigrations(pg.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
});
after(async () => {
  await pg?.drop();
});

test('every table and column of the SQLite host schema exists on PostgreSQL, with its NOT NULL and key', {
  skip,
}, async () => {
  const sqlite = new Database(':memory:');
  applyMigrations(sqlite, { owner: 'host', migrations: HOST_MIGRATIONS });
  const want = new Map<string, Map<string, Column>>();
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  for (const table of tables.filter((t) => !FTS5_OWN.test(t))) {
    const cols = sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string; notnull: number; pk: number }[];
    // SQLite's INTEGER PRIMARY KEY and PRIMARY KEY columns may be NULL by declaration; PostgreSQL's never are.
    want.set(table, new Map(cols.map((c) => [c.name, { notNull: c.notnull === 1 || c.pk > 0, pk: c.pk > 0 }])));
  }
  sqlite.close();

  const rows = await pg!.pool.query<{ table_name: string; column_name: string; is_nullable: string; pk: boolean }>(
    `SELECT c.table_name, c.column_name, c.is_nullable,
            EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                     JOIN information_schema.table_constraints t ON t.constraint_name = k.constraint_name
                      AND t.table_name = k.table_name AND t.constraint_type = 'PRIMARY KEY'
                    WHERE k.table_name = c.table_name AND k.column_name = c.column_name) AS pk
       FROM information_schema.columns c WHERE c.table_schema = 'public'`,
  );
  const got = new Map<string, Map<string, Column>>();
  for (const r of rows.rows) {
    if (!got.has(r.table_name)) got.set(r.table_name, new Map());
    got.get(r.table_name)!.set(r.column_name, { notNull: r.is_nullable === 'NO', pk: r.pk });
  }
  assert.deepEqual(
    [...got.keys()].filter((t) => !PG_INDEX_TABLES.has(t) && t !== 'cerebro_bootstrap').sort(),
    [...want.keys()].sort(),
    'the same tables',
  );
  for (const [table, columns] of want) {
    assert.deepEqual(Object.fromEntries(got.get(table)!), Object.fromEntries(columns), `columns of ${table}`);
  }
});

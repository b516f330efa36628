import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twins of `marcaMigrations` (same ids), for a host on PostgreSQL. Released: append only. */
export const marcaPostgresMigrations: Migration[] = [
  {
    id: '0001_brands',
    sql: `CREATE TABLE marca_brands (
  space_id TEXT PRIMARY KEY,
  config TEXT NOT NULL,
  updated_at TEXT NOT NULL
);`,
  },
];

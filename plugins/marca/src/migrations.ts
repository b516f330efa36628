import type { Migration } from '@cerebro/sdk';

/** Released migrations of the brand module: append only. */
export const marcaMigrations: Migration[] = [
  {
    id: '0001_brands',
    sql: `CREATE TABLE marca_brands (
  space_id TEXT PRIMARY KEY,
  config TEXT NOT NULL,
  updated_at TEXT NOT NULL
);`,
  },
];

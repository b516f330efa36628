import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0021_storage_holds.ts`. Released: never edit, add a new one. */
export const pgMigration0021StorageHolds: Migration = {
  id: '0021_storage_holds',
  sql: `
CREATE TABLE storage_holds (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  bytes BIGINT NOT NULL CHECK (bytes >= 0),
  documents BIGINT NOT NULL CHECK (documents >= 0),
  until BIGINT NOT NULL
);
CREATE INDEX storage_holds_account ON storage_holds (account_id, until);
`,
};

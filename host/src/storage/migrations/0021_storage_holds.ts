import type { Migration } from '@cerebro/sdk';

/**
 * Room held for uploads in flight, shared by every process on the database (limits/storage-quotas.ts): until now each
 * process kept its holds in memory, so two processes could each admit an upload into the same last room. `until`
 * (epoch ms) ends a hold whose process died before giving it back. Released: never edit, add a new one.
 */
export const migration0021StorageHolds: Migration = {
  id: '0021_storage_holds',
  sql: `
CREATE TABLE storage_holds (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  bytes INTEGER NOT NULL CHECK (bytes >= 0),
  documents INTEGER NOT NULL CHECK (documents >= 0),
  until INTEGER NOT NULL
);
CREATE INDEX storage_holds_account ON storage_holds (account_id, until);
`,
};

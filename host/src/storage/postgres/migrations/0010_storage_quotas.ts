import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0010_storage_quotas.ts`. Released: never edit. */
export const pgMigration0010StorageQuotas: Migration = {
  id: '0010_storage_quotas',
  sql: `
ALTER TABLE accounts ADD COLUMN quota_bytes BIGINT CHECK (quota_bytes IS NULL OR quota_bytes >= 0);
ALTER TABLE accounts ADD COLUMN quota_documents BIGINT CHECK (quota_documents IS NULL OR quota_documents >= 0);
`,
};

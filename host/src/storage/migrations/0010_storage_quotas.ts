import type { Migration } from '@cerebro/sdk';

/**
 * Per-account storage quotas, set by the operator: the bytes and the number of documents an account's spaces may
 * hold together. NULL means the configured default applies (CEREBRO_QUOTA_*). Released: never edit, add a new one.
 */
export const migration0010StorageQuotas: Migration = {
  id: '0010_storage_quotas',
  sql: `
ALTER TABLE accounts ADD COLUMN quota_bytes INTEGER CHECK (quota_bytes IS NULL OR quota_bytes >= 0);
ALTER TABLE accounts ADD COLUMN quota_documents INTEGER CHECK (quota_documents IS NULL OR quota_documents >= 0);
`,
};

import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `cerebro/job-leases-schema.ts` (0013). Released: never edit. */
export const pgMigration0013JobLeases: Migration = {
  id: '0013_cerebro_job_leases',
  sql: `
ALTER TABLE cerebro_documents ADD COLUMN lease_owner TEXT;
ALTER TABLE cerebro_documents ADD COLUMN lease_until BIGINT;
CREATE INDEX cerebro_documents_lease ON cerebro_documents (state, lease_owner);
CREATE TABLE process_leases (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  until BIGINT NOT NULL
);
CREATE TABLE change_versions (
  name TEXT PRIMARY KEY,
  version BIGINT NOT NULL
);
`,
};

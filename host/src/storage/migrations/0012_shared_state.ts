import type { Migration } from '@cerebro/sdk';

/**
 * State several processes on one database share instead of keeping it to themselves (issue #24): per-minute
 * request windows of spaces, the owner, lease and charge of idempotency holds, and failed sign-ins. (Indexing job
 * leases, named leases and change versions: 0013_cerebro_job_leases.) Released: never edit,
 * add a new one.
 */
export const migration0012SharedState: Migration = {
  id: '0012_shared_state',
  sql: `
CREATE TABLE rate_windows (
  space_id TEXT NOT NULL,
  minute INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  PRIMARY KEY (space_id, minute)
) WITHOUT ROWID;
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
ALTER TABLE idempotency_keys ADD COLUMN lease_until INTEGER;
ALTER TABLE idempotency_keys ADD COLUMN charged_account TEXT;
ALTER TABLE idempotency_keys ADD COLUMN charged_amount INTEGER;
CREATE TABLE sign_in_failures (
  subject TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_subject ON sign_in_failures (subject, at);
`,
};

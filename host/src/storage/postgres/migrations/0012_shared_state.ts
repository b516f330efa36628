import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0012_shared_state.ts`. With `CEREBRO_REDIS_URL` set, rate windows and
 * sign-in failures count in Redis instead (storage/redis/); these tables are the fallback. Released: never edit.
 */
export const pgMigration0012SharedState: Migration = {
  id: '0012_shared_state',
  sql: `
CREATE TABLE rate_windows (
  space_id TEXT NOT NULL,
  minute BIGINT NOT NULL,
  calls BIGINT NOT NULL,
  PRIMARY KEY (space_id, minute)
);
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
ALTER TABLE idempotency_keys ADD COLUMN lease_until BIGINT;
ALTER TABLE idempotency_keys ADD COLUMN charged_account TEXT;
ALTER TABLE idempotency_keys ADD COLUMN charged_amount BIGINT;
CREATE TABLE sign_in_failures (
  subject TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_subject ON sign_in_failures (subject, at);
`,
};

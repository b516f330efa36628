import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0005_idempotency.ts`. Released: never edit. */
export const pgMigration0005Idempotency: Migration = {
  id: '0005_idempotency',
  sql: `
CREATE TABLE idempotency_keys (
  caller TEXT NOT NULL,
  space_id TEXT NOT NULL,
  route TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('en_curso', 'hecha')),
  status BIGINT,
  headers TEXT,
  body BYTEA,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (caller, space_id, route, idempotency_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`,
};

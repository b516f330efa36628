import type { Migration } from '@cerebro/sdk';

/**
 * Answers of paid requests sent with an `Idempotency-Key`, kept 24 h so a retry gets the stored answer instead of
 * paying again. One row per caller, space, route and key; `state` is `en_curso` until the first request answers.
 */
export const migration0005Idempotency: Migration = {
  id: '0005_idempotency',
  sql: `
    CREATE TABLE idempotency_keys (
      caller TEXT NOT NULL,
      space_id TEXT NOT NULL,
      route TEXT NOT NULL,
      idempotency_key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('en_curso', 'hecha')),
      status INTEGER,
      headers TEXT,
      body BLOB,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (caller, space_id, route, idempotency_key)
    ) WITHOUT ROWID;
    CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
  `,
};

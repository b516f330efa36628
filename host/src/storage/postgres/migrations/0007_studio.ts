import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0007_studio.ts`, with the same data steps (emails normalised and made
 * unique, earlier sessions expiring 7 days after it runs) in PostgreSQL's functions. Released: never edit.
 */
export const pgMigration0007Studio: Migration = {
  id: '0007_studio',
  sql: `
UPDATE owners SET email = lower(trim(email)) WHERE email IS NOT NULL;
UPDATE owners SET email = NULL
 WHERE email IS NOT NULL AND deleted_at IS NULL
   AND EXISTS (SELECT 1 FROM owners o WHERE o.email = owners.email AND o.deleted_at IS NULL
               AND (o.created_at < owners.created_at OR (o.created_at = owners.created_at AND o.id < owners.id)));
CREATE UNIQUE INDEX owners_email_unique ON owners(email) WHERE email IS NOT NULL AND deleted_at IS NULL;
ALTER TABLE owners ADD COLUMN password_digest TEXT;
ALTER TABLE owners ADD COLUMN password_changed_at TEXT;

ALTER TABLE console_sessions ADD COLUMN expires_at TEXT;
ALTER TABLE console_sessions ADD COLUMN max_expires_at TEXT;
ALTER TABLE console_sessions ADD COLUMN last_seen_at TEXT;
ALTER TABLE console_sessions ADD COLUMN user_agent TEXT;
ALTER TABLE console_sessions ADD COLUMN ip TEXT;
ALTER TABLE console_sessions ADD COLUMN origin TEXT NOT NULL DEFAULT 'operador';
UPDATE console_sessions
   SET expires_at = to_char((now() AT TIME ZONE 'UTC') + interval '7 days', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       max_expires_at = to_char((now() AT TIME ZONE 'UTC') + interval '7 days', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       last_seen_at = created_at;
CREATE INDEX console_sessions_owner ON console_sessions(owner_id);

CREATE TABLE sign_in_links (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES owners(id),
  secret_digest BYTEA NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);

CREATE TABLE key_daily_usage (
  key_id TEXT NOT NULL,
  day TEXT NOT NULL,
  route TEXT NOT NULL,
  calls BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day, route)
);
`,
};

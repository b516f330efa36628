import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0018_audit_log.ts` (the audit log). Released: never edit, add a new one.
 */
export const pgMigration0018AuditLog: Migration = {
  id: '0018_audit_log',
  sql: `
CREATE TABLE audit_log (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at TEXT NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('persona', 'clave', 'operador')),
  actor_id TEXT NOT NULL,
  actor_email TEXT,
  actor_name TEXT,
  action TEXT NOT NULL,
  target_kind TEXT,
  target_id TEXT,
  owner_id TEXT,
  space_id TEXT,
  ip TEXT,
  request_id TEXT,
  route TEXT,
  before_json TEXT,
  after_json TEXT,
  details_json TEXT
);
CREATE INDEX audit_log_owner ON audit_log (owner_id, seq);
CREATE INDEX audit_log_space ON audit_log (space_id, seq);
CREATE INDEX audit_log_at ON audit_log (at);
`,
};

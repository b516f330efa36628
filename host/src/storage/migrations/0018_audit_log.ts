import type { Migration } from '@cerebro/sdk';

/**
 * The audit log (issue #26 item 2): one row per change made by a person, a key or the operator. `seq` orders the
 * log and is the reading cursor (newest first); `at` is an ISO time, what retention deletes by. The actor is kept
 * as it was then (kind, id, email or key name), so a deleted owner or revoked key still explains its events; a
 * `persona` actor's id is an owner's id today and a member's once members exist. `before_json`/`after_json` hold
 * settings as they were and became (secrets never reach them); `details_json` any other facts of the event.
 * Released: never edit, add a new one.
 */
export const migration0018AuditLog: Migration = {
  id: '0018_audit_log',
  sql: `
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
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

import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0019_members.ts` (members and roles). Released: never edit, add a new one. */
export const pgMigration0019Members: Migration = {
  id: '0019_members',
  sql: `
CREATE TABLE members (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  password_digest TEXT NOT NULL,
  created_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE UNIQUE INDEX members_email_unique ON members(email) WHERE deleted_at IS NULL;

CREATE TABLE memberships (
  space_id TEXT NOT NULL REFERENCES spaces(id),
  member_id TEXT NOT NULL REFERENCES members(id),
  owner_id TEXT NOT NULL REFERENCES owners(id),
  role TEXT NOT NULL CHECK (role IN ('administra', 'edita', 'consulta')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (space_id, member_id)
);
CREATE INDEX memberships_member ON memberships(member_id);

CREATE TABLE member_invitations (
  id TEXT PRIMARY KEY,
  space_id TEXT NOT NULL REFERENCES spaces(id),
  owner_id TEXT NOT NULL REFERENCES owners(id),
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('administra', 'edita', 'consulta')),
  secret_digest BYTEA NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  revoked_at TEXT
);
CREATE INDEX member_invitations_space ON member_invitations(space_id);

CREATE TABLE member_sessions (
  id TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES members(id),
  secret_digest BYTEA NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  expires_at TEXT,
  max_expires_at TEXT,
  last_seen_at TEXT,
  user_agent TEXT,
  ip TEXT,
  origin TEXT NOT NULL DEFAULT 'clave'
);
CREATE INDEX member_sessions_member ON member_sessions(member_id);
`,
};

import type { Migration } from '@cerebro/sdk';

/**
 * Core tables: owners, accounts with their credit pool, spaces and their modules, service keys, console sessions,
 * operator credentials, credit movements and daily usage. Released: never edit, add a new migration instead.
 */
export const migration0001Core: Migration = {
  id: '0001_core',
  sql: `
CREATE TABLE owners (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT,
  read_only INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  deleted_at TEXT
);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES owners(id),
  credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  unpaid_since TEXT,
  suspended INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX accounts_owner ON accounts(owner_id);

CREATE TABLE spaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  owner_id TEXT REFERENCES owners(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  trial_ends_at TEXT,
  owner_read_only INTEGER NOT NULL DEFAULT 0,
  api_enabled INTEGER NOT NULL DEFAULT 1,
  api_settings TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);
CREATE INDEX spaces_owner ON spaces(owner_id);

CREATE TABLE space_modules (
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  module TEXT NOT NULL,
  enabled_at TEXT NOT NULL,
  PRIMARY KEY (space_id, module)
) WITHOUT ROWID;

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES owners(id),
  name TEXT NOT NULL,
  spaces TEXT NOT NULL DEFAULT '[]',
  permission TEXT NOT NULL CHECK (permission IN ('lee', 'escribe')),
  secret_digest BLOB NOT NULL,
  created_by_key TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  calls INTEGER NOT NULL DEFAULT 0,
  calls_by_route TEXT NOT NULL DEFAULT '{}',
  last_used_at TEXT
);
CREATE INDEX api_keys_owner ON api_keys(owner_id);

CREATE TABLE console_sessions (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES owners(id),
  secret_digest BLOB NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE operator_credentials (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  secret_digest BLOB NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE credit_movements (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  delta INTEGER NOT NULL,
  balance_after INTEGER NOT NULL,
  reason TEXT NOT NULL,
  space_id TEXT,
  route TEXT,
  request_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX credit_movements_account ON credit_movements(account_id, id);

CREATE TABLE daily_usage (
  space_id TEXT NOT NULL,
  day TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (space_id, day)
) WITHOUT ROWID;
`,
};

import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0011_webhooks.ts`. Released: never edit. */
export const pgMigration0011Webhooks: Migration = {
  id: '0011_webhooks',
  sql: `
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  credit_threshold BIGINT NOT NULL DEFAULT 100 CHECK (credit_threshold >= 1),
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until BIGINT,
  active BIGINT NOT NULL DEFAULT 1,
  disabled_at TEXT,
  disabled_reason TEXT,
  consecutive_failures BIGINT NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhooks_space ON webhooks(space_id);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pendiente', 'entregada', 'fallida')),
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  lease_until BIGINT,
  give_up_at BIGINT NOT NULL,
  manual_requested BIGINT NOT NULL DEFAULT 0,
  last_status BIGINT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, created_at);

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  n BIGINT NOT NULL,
  at TEXT NOT NULL,
  status BIGINT,
  error TEXT,
  ms BIGINT NOT NULL,
  manual BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (delivery_id, n)
);
`,
};

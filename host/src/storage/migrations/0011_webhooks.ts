import type { Migration } from '@cerebro/sdk';

/**
 * Outbound webhooks (host/src/webhooks): the endpoints an owner registers per space, one delivery per event and
 * endpoint (the exact body signed and sent, so a retry or a redelivery sends the same bytes with a new signature),
 * and every attempt. `lease_until` lets one process at a time send a delivery. Released: never edit, add a new one.
 */
export const migration0011Webhooks: Migration = {
  id: '0011_webhooks',
  sql: `
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  credit_threshold INTEGER NOT NULL DEFAULT 100 CHECK (credit_threshold >= 1),
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until INTEGER,
  active INTEGER NOT NULL DEFAULT 1,
  disabled_at TEXT,
  disabled_reason TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
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
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until INTEGER,
  give_up_at INTEGER NOT NULL,
  manual_requested INTEGER NOT NULL DEFAULT 0,
  last_status INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, created_at);

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  at TEXT NOT NULL,
  status INTEGER,
  error TEXT,
  ms INTEGER NOT NULL,
  manual INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (delivery_id, n)
);
`,
};

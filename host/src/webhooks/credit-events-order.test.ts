// An account's credit events are decided in the order the ledger told them. Whether `creditos.agotados` is told reads
// what the previous decisions stored; with the storage a round trip away (PostgreSQL), a debit reaching zero and
// the refused request right after it both decided before either had stored, and the exhaustion was told twice.
// Here the repository is SQLite with its writes of deliveries held back 30 ms, as a database server's would be.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { HostConfig } from '../config/host-config.js';
import { migratedSqliteFile, seedAccount, seedSpace } from '../storage/sqlite/migrated-sqlite-file.js';
import { SqliteWebhookRepository } from '../storage/sqlite/webhook-repository.js';
import type { WebhookRepository } from '../storage/port/webhook-repository.js';
import { WebhookService } from './webhook-service.js';
import { DEFAULT_WEBHOOK_SETTINGS } from './webhook-settings.js';

test('a debit reaching zero and the refused requests right after it tell creditos.agotados once', async (t) => {
  const file = migratedSqliteFile();
  t.after(file.close);
  const sqlite = new SqliteWebhookRepository(file.db);
  const repo: WebhookRepository = Object.create(sqlite, {
    insertDeliveries: {
      value: async (rows: Parameters<WebhookRepository['insertDeliveries']>[0]) => {
        await new Promise((r) => setTimeout(r, 30));
        return sqlite.insertDeliveries(rows);
      },
    },
  });
  const accountId = seedAccount(file.db);
  const spaceId = seedSpace(file.db, accountId);
  const at = new Date().toISOString();
  await sqlite.insertEndpoint({
    id: 'whk_1',
    space_id: spaceId,
    url: 'https://example.com/avisos',
    events: JSON.stringify(['creditos.agotados']),
    description: '',
    credit_threshold: 1,
    secret: 'secreto',
    previous_secret: null,
    previous_secret_until: null,
    active: 1,
    disabled_at: null,
    disabled_reason: null,
    consecutive_failures: 0,
    created_at: at,
    updated_at: at,
  });
  const service = new WebhookService(
    repo,
    { webhooks: DEFAULT_WEBHOOK_SETTINGS } as HostConfig,
    { now: () => Date.now() },
    pino({ level: 'silent' }),
  );
  // As the ledger tells them: the last debit (3 → 0), then two requests refused, each told without waiting.
  await Promise.all([
    service.creditsDebited(accountId, 3, 0),
    service.creditsRefused(accountId, 0),
    service.creditsRefused(accountId, 0),
  ]);
  const told = file.db
    .prepare("SELECT json_extract(body, '$.datos.saldo') AS saldo FROM webhook_deliveries WHERE event_type = ?")
    .all('creditos.agotados');
  assert.deepEqual(told, [{ saldo: 0 }]);
});

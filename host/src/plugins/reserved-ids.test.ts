import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reservedIdReason } from './reserved-ids.js';

test('ids whose table prefix begins a host table are reserved, naming the table', () => {
  for (const [id, table] of [
    ['space', 'space_modules'],
    ['credit', 'credit_movements'],
    ['daily', 'daily_usage'],
    ['console', 'console_sessions'],
    ['operator', 'operator_credentials'],
    ['api-keys', 'api_keys'],
    ['accounts', 'accounts'],
    ['spaces', 'spaces'],
  ] as const) {
    assert.match(reservedIdReason(id) ?? '', new RegExp(`reservado por el host.*"${table}`), id);
  }
});

test('host path names stay reserved; the shipped plugins and unrelated ids are free', () => {
  assert.match(reservedIdReason('companies') ?? '', /reservado/);
  for (const id of ['marca', 'ventas', 'transcripcion', 'fuentes', 'landing', 'eco', 'owner', 'spa']) {
    assert.equal(reservedIdReason(id), null, id);
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redisPrefixOf } from './redis-counters.js';

test("a deployment's Redis keys are prefixed by its database: its hosts share them, another deployment does not", () => {
  const prod = redisPrefixOf('postgres://cerebro:secreto@db.interna:5432/cerebro');
  assert.match(prod, /^cerebro:[0-9a-f]{12}:$/);
  assert.equal(redisPrefixOf('postgresql://otro@db.interna/cerebro'), prod, 'same server, port and database');
  assert.notEqual(redisPrefixOf('postgres://cerebro@db.interna:5432/cerebro_staging'), prod);
  assert.notEqual(redisPrefixOf('postgres://cerebro@db2.interna:5432/cerebro'), prod);
  assert.notEqual(redisPrefixOf('postgres://cerebro@db.interna:5433/cerebro'), prod);
  assert.ok(!prod.includes('secreto'));
});

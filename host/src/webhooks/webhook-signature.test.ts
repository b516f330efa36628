import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { retryDelay } from './retry-delay.js';
import { newWebhookSecret, signatureHeader } from './webhook-signature.js';

test('Cerebro-Firma is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">, one v1 per secret in order', () => {
  const body = '{"id":"evt_1","tipo":"documento.listo"}';
  const expected = createHmac('sha256', 'whsec_a').update(`1700000000.${body}`).digest('hex');
  assert.equal(signatureHeader(['whsec_a'], 1700000000, body), `t=1700000000,v1=${expected}`);
  const two = signatureHeader(['whsec_a', 'whsec_b'], 1700000000, body).split(',');
  assert.equal(two.length, 3);
  assert.equal(two[1], `v1=${expected}`);
  assert.notEqual(two[2], two[1]);
  assert.match(newWebhookSecret(), /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.notEqual(newWebhookSecret(), newWebhookSecret());
});

test('retry delays double from the base up to the cap, within ±20 %', () => {
  const base = 30_000;
  const max = 4 * 3600_000;
  for (const [n, nominal] of [
    [1, 30_000],
    [2, 60_000],
    [5, 480_000],
    [12, max],
  ] as const) {
    assert.equal(
      retryDelay(n, base, max, () => 0.5),
      nominal,
    );
    assert.equal(
      retryDelay(n, base, max, () => 0),
      Math.round(nominal * 0.8),
    );
    assert.equal(
      retryDelay(n, base, max, () => 1),
      Math.round(nominal * 1.2),
    );
  }
  // 24 h of retries with the defaults: about a dozen attempts, the last ones 4 h apart.
  let elapsed = 0;
  let attempts = 1;
  while (elapsed + retryDelay(attempts, base, max, () => 0.5) <= 24 * 3600_000)
    elapsed += retryDelay(attempts++, base, max, () => 0.5);
  assert.ok(attempts >= 10 && attempts <= 16, `${attempts} attempts in 24 h`);
});

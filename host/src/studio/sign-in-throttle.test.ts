import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignInThrottle, type ThrottleLimits } from './sign-in-throttle.js';
import { SqliteSignInFailureRepository } from '../storage/sqlite/sign-in-failure-repository.js';
import { openDatabase } from '../storage/database.js';
import { applyMigrations } from '../storage/migrator.js';
import { HOST_MIGRATIONS } from '../storage/migrations/index.js';

/** A throttle over a fresh migrated database (the failures live in SQLite). */
function throttleOf(limits: ThrottleLimits): SignInThrottle {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  return new SignInThrottle(new SqliteSignInFailureRepository(db), limits);
}

const MIN = 60_000;

test('per email: the 6th attempt within 15 minutes waits until the oldest failure leaves the window', async () => {
  const throttle = throttleOf({ windowMs: 15 * MIN, perEmail: 5, perIp: 100 });
  const t0 = 1_000_000;
  for (let i = 0; i < 5; i++) {
    assert.equal(await throttle.retryAfter('ana@x.es', '1.1.1.1', t0 + i * MIN), 0);
    await throttle.fail('ana@x.es', '1.1.1.1', t0 + i * MIN);
  }
  assert.equal(await throttle.retryAfter('ana@x.es', '2.2.2.2', t0 + 5 * MIN), 10 * 60, 'from any address');
  assert.equal(await throttle.retryAfter('otra@x.es', '1.1.1.1', t0 + 5 * MIN), 0, 'another email is not blocked');
  assert.equal(
    await throttle.retryAfter('ana@x.es', '1.1.1.1', t0 + 15 * MIN + 1),
    0,
    'the oldest failure has expired',
  );
});

test('per IP: many emails from one address are blocked together; success clears the email, not the address', async () => {
  const throttle = throttleOf({ windowMs: 15 * MIN, perEmail: 5, perIp: 3 });
  for (let i = 0; i < 3; i++) await throttle.fail(`p${i}@x.es`, '9.9.9.9', 0);
  assert.ok((await throttle.retryAfter('nueva@x.es', '9.9.9.9', 1)) > 0);
  assert.equal(await throttle.retryAfter('nueva@x.es', '8.8.8.8', 1), 0);
  await throttle.succeed('p0@x.es');
  assert.ok((await throttle.retryAfter('nueva@x.es', '9.9.9.9', 1)) > 0);
});

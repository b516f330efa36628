import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storageApiError, storageFailureOf } from './storage-failure.js';

const coded = (code: string, cause?: unknown) => Object.assign(new Error(code), { code }, cause ? { cause } : {});

test('full disk and busy database errors are told apart from any other error, also behind a cause', () => {
  assert.deepEqual(storageFailureOf(coded('ENOSPC')), { kind: 'full', errno: 'ENOSPC' });
  assert.deepEqual(storageFailureOf(coded('EDQUOT')), { kind: 'full', errno: 'EDQUOT' });
  assert.deepEqual(storageFailureOf(coded('SQLITE_FULL')), { kind: 'full', errno: 'SQLITE_FULL' });
  assert.deepEqual(storageFailureOf(coded('SQLITE_BUSY')), { kind: 'busy', errno: 'SQLITE_BUSY' });
  assert.deepEqual(storageFailureOf(coded('SQLITE_BUSY_SNAPSHOT')), { kind: 'busy', errno: 'SQLITE_BUSY_SNAPSHOT' });
  assert.deepEqual(storageFailureOf(coded('SQLITE_LOCKED_SHAREDCACHE')), {
    kind: 'busy',
    errno: 'SQLITE_LOCKED_SHAREDCACHE',
  });
  assert.deepEqual(storageFailureOf(new Error('envuelto', { cause: coded('ENOSPC') })), {
    kind: 'full',
    errno: 'ENOSPC',
  });
  for (const other of [
    coded('ENOENT'),
    coded('SQLITE_CONSTRAINT'),
    coded('SQLITE_BUSYNESS'),
    new Error('x'),
    null,
    'ENOSPC',
    { code: 5 },
  ]) {
    assert.equal(storageFailureOf(other), null, String((other as { code?: unknown })?.code ?? other));
  }
  const full = storageApiError({ kind: 'full', errno: 'ENOSPC' });
  assert.deepEqual([full.status, full.code, full.headers], [507, 'insufficient_storage', {}]);
  const busy = storageApiError({ kind: 'busy', errno: 'SQLITE_BUSY' });
  assert.deepEqual([busy.status, busy.code, busy.headers], [503, 'database_busy', { 'Retry-After': '2' }]);
  assert.deepEqual(storageFailureOf(coded('ORIGINALS_UNAVAILABLE')), {
    kind: 'unavailable',
    errno: 'ORIGINALS_UNAVAILABLE',
  });
  const unavailable = storageApiError({ kind: 'unavailable', errno: 'ORIGINALS_UNAVAILABLE' });
  assert.deepEqual(
    [unavailable.status, unavailable.code, unavailable.headers],
    [503, 'originals_unavailable', { 'Retry-After': '2' }],
  );
});

test('the real errors of better-sqlite3 are recognised: SQLITE_FULL from a capped database, SQLITE_BUSY from a held lock', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-storage-failure-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const capped = new Database(':memory:');
  capped.exec('CREATE TABLE t (v TEXT)');
  capped.pragma(`max_page_count = ${Number(capped.pragma('page_count', { simple: true }))}`);
  assert.throws(
    () => capped.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000)),
    (err) => storageFailureOf(err)?.kind === 'full',
  );
  capped.close();

  const file = join(dir, 'b.db');
  const holder = new Database(file);
  holder.exec('CREATE TABLE t (v TEXT)');
  const waiter = new Database(file, { timeout: 0 });
  t.after(() => {
    holder.close();
    waiter.close();
  });
  holder.exec('BEGIN IMMEDIATE');
  assert.throws(
    () => waiter.prepare('INSERT INTO t VALUES (1)').run(),
    (err) => storageFailureOf(err)?.kind === 'busy',
  );
  holder.exec('ROLLBACK');
});

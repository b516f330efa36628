// The server-process helper itself: a start that never completes fails the test instead of hanging the suite.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServer } from './support/server-process.js';

test('a server that has not finished starting within the timeout is killed and the start rejects', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-start-timeout-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const started = Date.now();
  // 1 ms: no real start finishes that fast, so this exercises the timeout path with the real CLI.
  await assert.rejects(startServer(join(dir, 'data'), {}, { timeoutMs: 1 }), /did not finish starting within 1 ms/);
  assert.ok(Date.now() - started < 5_000, 'rejected at the timeout, not when the server would have started');
});

test('a server that exits during its start rejects with what it printed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-start-exit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // An unusable port: the configuration is refused before listening.
  await assert.rejects(startServer(join(dir, 'data'), { CEREBRO_PORT: 'no-es-un-puerto' }), /serve exited with [1-9]/);
});

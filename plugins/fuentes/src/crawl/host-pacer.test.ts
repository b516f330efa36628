// Politeness: one pace per host shared by every run; other hosts do not wait; a cancel ends the wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HostPacer } from './host-pacer.js';

test('requests to one host keep the pause even from two runs at once; another host does not wait', async () => {
  const pacer = new HostPacer();
  const never = new AbortController().signal;
  const started = Date.now();
  await pacer.wait('https://a.test/1', 150, never);
  await Promise.all([pacer.wait('https://a.test/2', 150, never), pacer.wait('https://a.test/3', 150, never)]);
  assert.ok(Date.now() - started >= 290, `three requests to a.test took ${Date.now() - started} ms, under two pauses`);
  const other = Date.now();
  await pacer.wait('https://b.test/1', 150, never);
  assert.ok(Date.now() - other < 100, 'b.test was never asked: no wait');
  const cancel = new AbortController();
  const waiting = pacer.wait('https://a.test/4', 150, cancel.signal);
  cancel.abort(new Error('cancelada'));
  await assert.rejects(waiting, /cancelada/);
});

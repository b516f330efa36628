// One exchange's signal: the caller's cancel or the time limit, kept until the bodies being drained are closed.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExchangeSignal } from './exchange-signal.js';

test('the time limit aborts it and says so', async () => {
  const exchange = new ExchangeSignal(undefined, 20);
  await sleep(60);
  assert.equal(exchange.signal.aborted, true);
  assert.equal(exchange.timedOut, true);
});

test("the caller's cancel aborts it with the caller's reason, also when it came first", () => {
  const caller = new AbortController();
  const exchange = new ExchangeSignal(caller.signal, 10_000);
  caller.abort(new Error('cancelada'));
  assert.equal(exchange.signal.aborted, true);
  assert.equal(exchange.timedOut, false);
  assert.match(String(exchange.signal.reason), /cancelada/);
  exchange.end();
  assert.equal(new ExchangeSignal(caller.signal, 10_000).signal.aborted, true);
});

test('once over, neither the time limit nor a cancel reaches it; a body being drained keeps both until closed', async () => {
  const caller = new AbortController();
  const done = new ExchangeSignal(caller.signal, 20);
  done.end();
  const draining = new ExchangeSignal(caller.signal, 10_000);
  const body = new PassThrough();
  draining.drain(body);
  draining.end();
  await sleep(60);
  assert.equal(done.signal.aborted, false);
  caller.abort(new Error('cancelada'));
  assert.equal(done.signal.aborted, false);
  assert.equal(draining.signal.aborted, true, 'still draining: the cancel cuts it');
  body.destroy();
});

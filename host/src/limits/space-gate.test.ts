import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isApiError } from '@cerebro/sdk';
import { InMemorySpaceGate } from './space-gate.js';

test('one question at a time per space, in arrival order; other spaces are not held; a full line is refused with Retry-After', async () => {
  const gate = new InMemorySpaceGate({ concurrency: 1, queue: 2, maxWaitMs: 5_000 });
  const first = await gate.enter('a');
  const order: string[] = [];
  const second = gate.enter('a').then((turn) => {
    order.push('second');
    return turn;
  });
  const third = gate.enter('a').then((turn) => {
    order.push('third');
    return turn;
  });
  assert.deepEqual(gate.load('a'), { running: 1, waiting: 2 });
  await assert.rejects(
    gate.enter('a'),
    (err) => isApiError(err) && err.status === 503 && err.code === 'space_busy' && err.headers['Retry-After'] === '2',
  );
  const other = await gate.enter('b'); // another space goes straight in
  assert.equal(other.waitedMs, 0);
  other.release();

  first.release();
  const s = await second;
  assert.ok(s.waitedMs >= 0);
  s.release();
  (await third).release();
  assert.deepEqual(order, ['second', 'third']);
  assert.deepEqual(gate.load('a'), { running: 0, waiting: 0 });
  first.release(); // a second release is ignored
  assert.deepEqual(gate.load('a'), { running: 0, waiting: 0 });
});

test('a question waiting past the limit is refused; one whose client left stops waiting', async () => {
  const gate = new InMemorySpaceGate({ concurrency: 1, queue: 5, maxWaitMs: 30 });
  const holder = await gate.enter('a');
  await assert.rejects(
    gate.enter('a'),
    (err) => isApiError(err) && err.code === 'space_busy' && /esperó más de/.test(String(err.detail)),
  );
  const controller = new AbortController();
  const waiting = gate.enter('a', controller.signal);
  controller.abort(new Error('client disconnected'));
  await assert.rejects(waiting, (err) => isApiError(err) && /cerró la conexión/.test(String(err.detail)));
  assert.deepEqual(gate.load('a'), { running: 1, waiting: 0 });
  holder.release();
  assert.deepEqual(gate.load('a'), { running: 0, waiting: 0 });
});

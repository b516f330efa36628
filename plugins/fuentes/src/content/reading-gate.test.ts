// The reading pool's width: one body at a time while bodies keep finishing, one more thread when they stall.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ReadingGate } from './reading-gate.js';

const never = new AbortController().signal;

test('one body at a time while bodies keep finishing; the next waits its turn, in order', async () => {
  const gate = new ReadingGate(2, 10_000);
  const order: number[] = [];
  await gate.enter(never);
  const second = gate.enter(never).then(() => order.push(2));
  const third = gate.enter(never).then(() => order.push(3));
  await sleep(20);
  assert.deepEqual(order, [], 'nothing admitted beside the first');
  gate.leave();
  await second;
  gate.leave();
  await third;
  gate.leave();
  assert.deepEqual(order, [2, 3]);
  assert.equal(gate.width, 1);
});

test('a body held past growAfterMs while another waits lets one more in, up to the maximum', async () => {
  const gate = new ReadingGate(2, 50);
  await gate.enter(never); // the large body: never finishes during the test
  let admitted = 0;
  const waiting = [gate.enter(never), gate.enter(never)].map((p) => p.then(() => admitted++));
  await waiting[0];
  assert.equal(gate.width, 2);
  assert.equal(admitted, 1, 'the maximum is two: the third still waits');
  gate.leave();
  await waiting[1];
  assert.equal(admitted, 2);
});

test('back to one at a time after shrinkAfterMs without a stall', async () => {
  const gate = new ReadingGate(2, 20, 60);
  await gate.enter(never);
  const grown = gate.enter(never);
  await grown;
  assert.equal(gate.width, 2);
  gate.leave();
  gate.leave();
  await sleep(100);
  await gate.enter(never);
  assert.equal(gate.width, 1);
  let admitted = false;
  const next = gate.enter(never).then(() => {
    admitted = true;
  });
  // A turn admitted at once settles within these microtasks; no timer of the gate can run before they end.
  for (let i = 0; i < 3; i++) await Promise.resolve();
  assert.equal(admitted, false, 'one at a time again');
  gate.leave();
  await next;
  gate.leave();
});

test('a cancel ends the wait at once and leaves the line', async () => {
  const gate = new ReadingGate(1, 10_000);
  await gate.enter(never);
  const cancel = new AbortController();
  const waiting = gate.enter(cancel.signal);
  const after = gate.enter(never);
  cancel.abort(new Error('cancelada'));
  await assert.rejects(waiting, /cancelada/);
  gate.leave();
  await after; // the cancelled one did not take the turn
  gate.leave();
  await assert.rejects(gate.enter(cancel.signal), /cancelada/);
});

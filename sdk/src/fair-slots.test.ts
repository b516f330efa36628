import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FairSlots } from './fair-slots.js';

/** Queues `keys` in order on `slots`, recording the order in which they are granted. */
function queueAll(slots: FairSlots, keys: string[], order: string[], releases: (() => void)[]): Promise<void>[] {
  return keys.map((key) =>
    slots.acquire(key).then((release) => {
      order.push(key);
      releases.push(release);
    }),
  );
}

const tick = () => new Promise((r) => setImmediate(r));

test("a key's backlog delays another key by the work already running, never by its backlog", async () => {
  const slots = new FairSlots(1);
  const order: string[] = [];
  const releases: (() => void)[] = [];
  const done = queueAll(slots, ['a', 'a', 'a', 'a', 'b', 'c', 'b'], order, releases);
  await tick();
  assert.deepEqual(order, ['a'], 'the first request takes the free slot');
  assert.equal(slots.queued, 6);
  assert.equal(slots.queuedFor('a'), 3);
  while (order.length < 7) {
    releases.shift()!();
    await tick();
  }
  await Promise.all(done);
  // b and c were never served: they go before a's second; then the key served longest ago each time.
  assert.deepEqual(order, ['a', 'b', 'c', 'a', 'b', 'a', 'a']);
  releases.shift()!();
  assert.equal(slots.busy, 0);
});

test('a key served long ago goes before one served recently; releasing twice frees one slot', async () => {
  const slots = new FairSlots(2);
  const first = await slots.acquire('a');
  const second = await slots.acquire('b');
  const order: string[] = [];
  const releases: (() => void)[] = [];
  const done = queueAll(slots, ['b', 'a'], order, releases);
  first();
  first();
  await tick();
  assert.deepEqual(order, ['a'], 'a was served before b: its turn is older');
  assert.equal(slots.busy, 2);
  second();
  await Promise.all(done);
  assert.deepEqual(order, ['a', 'b']);
});

test('an aborted wait leaves the line; rejectAll fails the rest', async () => {
  const slots = new FairSlots(1);
  const held = await slots.acquire('a');
  const controller = new AbortController();
  const aborted = slots.acquire('b', controller.signal);
  const other = slots.acquire('c');
  controller.abort(new Error('cancelada'));
  await assert.rejects(aborted, /cancelada/);
  assert.equal(slots.queued, 1);
  slots.rejectAll(new Error('cerrado'));
  await assert.rejects(other, /cerrado/);
  held();
  assert.equal(slots.busy, 0);
  assert.throws(() => new FairSlots(0), RangeError);
});

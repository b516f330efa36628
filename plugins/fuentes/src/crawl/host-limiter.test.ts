// Politeness: per-host slots and pace shared by every run; other hosts do not wait; a cancel ends either wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getEventListeners } from 'node:events';
import { HostLimiter } from './host-limiter.js';

const never = new AbortController().signal;

test('requests to one host keep the pause even from two runs at once; another host does not wait', async () => {
  const limiter = new HostLimiter(4);
  const started = Date.now();
  (await limiter.acquire('https://a.test/1', 150, never))();
  const both = await Promise.all([
    limiter.acquire('https://a.test/2', 150, never),
    limiter.acquire('https://a.test/3', 150, never),
  ]);
  both.forEach((release) => release());
  assert.ok(Date.now() - started >= 290, `three requests to a.test took ${Date.now() - started} ms, under two pauses`);
  const other = Date.now();
  (await limiter.acquire('https://b.test/1', 150, never))();
  assert.ok(Date.now() - other < 100, 'b.test was never asked: no wait');
  const cancel = new AbortController();
  const waiting = limiter.acquire('https://a.test/4', 150, cancel.signal);
  cancel.abort(new Error('cancelada'));
  await assert.rejects(waiting, /cancelada/);
});

test('at most `concurrency` slots per host; the next waits for a release, in order; a cancelled waiter leaves the line', async () => {
  const limiter = new HostLimiter(2);
  const first = await limiter.acquire('http://a.test:81/1', 0, never);
  const second = await limiter.acquire('http://a.test:81/2', 0, never);
  assert.equal(limiter.inFlight('a.test:81'), 2);
  (await limiter.acquire('http://a.test:82/1', 0, never))(); // another port is another host
  const order: string[] = [];
  const cancel = new AbortController();
  const dropped = limiter.acquire('http://a.test:81/3', 0, cancel.signal).then(
    () => order.push('3'),
    () => order.push('3 cancelada'),
  );
  const fourth = limiter.acquire('http://a.test:81/4', 0, never).then((release) => {
    order.push('4');
    return release;
  });
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(order, [], 'both wait while two are in flight');
  cancel.abort(new Error('cancelada'));
  await dropped;
  first();
  first(); // a second release of the same slot does nothing
  (await fourth)();
  assert.deepEqual(order, ['3 cancelada', '4']);
  assert.equal(limiter.inFlight('a.test:81'), 1);
  second();
  assert.equal(limiter.inFlight('a.test:81'), 0);
});

test('a cancel gives back the turns its requests had reserved, sent or not: the next caller waits its own pause only', async () => {
  const limiter = new HostLimiter(4);
  const run = new AbortController();
  const sent = await limiter.acquire('https://a.test/1', 3000, run.signal);
  sent();
  const waiting = [2, 3, 4].map((i) => limiter.acquire(`https://a.test/${i}`, 3000, run.signal));
  await new Promise((r) => setTimeout(r, 20));
  run.abort(new Error('cancelada'));
  for (const w of waiting) await assert.rejects(w, /cancelada/);
  const started = Date.now();
  (await limiter.acquire('https://a.test/5', 100, never))();
  const took = Date.now() - started;
  assert.ok(took < 1000, `the next request waited ${took} ms (the cancelled turns reached 12 s)`);
  const second = Date.now();
  (await limiter.acquire('https://a.test/6', 100, never))();
  assert.ok(Date.now() - second >= 90, 'its own pause still holds');
});

test('a run holding turns on many hosts adds one abort listener, not one per turn (node warns past 10)', async () => {
  const limiter = new HostLimiter(4);
  const run = new AbortController();
  for (let h = 0; h < 20; h++) (await limiter.acquire(`http://h${h}.example/`, 1000, run.signal))();
  assert.equal(getEventListeners(run.signal, 'abort').length, 1);
  run.abort();
  const next = Date.now();
  (await limiter.acquire('http://h0.example/otra', 0, new AbortController().signal))();
  assert.ok(Date.now() - next < 500, 'the cancelled run gave its turns back');
});

// The frontier takes hosts in turn (a busy host does not hold up the others) and drops URLs reached by a redirect.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Frontier } from './frontier.js';

test('hosts take turns, each in the order its URLs were found; a removed URL is not taken', () => {
  const frontier = new Frontier();
  for (const url of [
    'http://a.test/1',
    'http://a.test/2',
    'http://a.test/3',
    'http://b.test/1',
    'http://a.test:8080/1',
    'http://b.test/2',
  ]) {
    frontier.push({ url, depth: 0 });
  }
  frontier.push({ url: 'http://a.test/1', depth: 1 });
  assert.equal(frontier.size, 6, 'a URL already queued is not queued twice');
  assert.equal(frontier.remove('http://a.test/2'), true);
  assert.equal(frontier.remove('http://a.test/2'), false);
  assert.equal(frontier.has('http://b.test/2'), true);
  const order: string[] = [];
  for (let item = frontier.take(); item; item = frontier.take()) order.push(item.url);
  assert.deepEqual(order, [
    'http://a.test/1',
    'http://b.test/1',
    'http://a.test:8080/1',
    'http://a.test/3',
    'http://b.test/2',
  ]);
  assert.equal(frontier.size, 0);
  assert.equal(frontier.has('http://b.test/2'), false);
});

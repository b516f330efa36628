import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseContentCoding } from './content-encoding.js';

test('the most compact acceptable coding wins among equal weights', () => {
  assert.equal(chooseContentCoding('gzip, deflate, br'), 'br');
  assert.equal(chooseContentCoding('gzip, deflate'), 'gzip');
  assert.equal(chooseContentCoding('deflate'), 'identity');
  assert.equal(chooseContentCoding(undefined), 'identity');
  assert.equal(chooseContentCoding(''), 'identity');
});

test('q values are honoured, and q=0 refuses a coding', () => {
  assert.equal(chooseContentCoding('br;q=0.5, gzip'), 'gzip');
  assert.equal(chooseContentCoding('br;q=0, gzip;q=0.1'), 'gzip');
  assert.equal(chooseContentCoding('BR;Q=0.9, GZIP;Q=0.8'), 'br');
  assert.equal(chooseContentCoding('br;q=0, gzip;q=0'), 'identity');
  assert.equal(chooseContentCoding('gzip;q=nonsense'), 'identity');
});

test('a wildcard stands for every coding not named', () => {
  assert.equal(chooseContentCoding('*'), 'br');
  assert.equal(chooseContentCoding('br;q=0, *'), 'gzip');
  assert.equal(chooseContentCoding('identity'), 'identity');
});

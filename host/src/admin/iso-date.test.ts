import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIsoDate } from './iso-date.js';

test('strict ISO 8601 dates and date-times with an offset are read and normalised to UTC', () => {
  assert.equal(parseIsoDate('2026-12-31'), '2026-12-31T00:00:00.000Z');
  assert.equal(parseIsoDate('2028-02-29'), '2028-02-29T00:00:00.000Z');
  assert.equal(parseIsoDate('2026-12-31T18:00:00Z'), '2026-12-31T18:00:00.000Z');
  assert.equal(parseIsoDate('2026-12-31T18:00-05:00'), '2026-12-31T23:00:00.000Z');
  assert.equal(parseIsoDate('2026-01-02T03:04:05.678+01:00'), '2026-01-02T02:04:05.678Z');
});

test('words, impossible calendar dates and date-times without an offset are refused', () => {
  for (const text of [
    'tomorrow',
    '',
    '2026-13-45',
    '2026-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-1-5',
    '31/12/2026',
    '2026-12-31T18:00:00',
    '2026-12-31T24:00:00Z',
    '2026-12-31T18:60Z',
    '2026-12-31T18:00+25:00',
    '2026-12-31 18:00Z',
    ' 2026-12-31',
  ]) {
    assert.equal(parseIsoDate(text), undefined, text);
  }
});

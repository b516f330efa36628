import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toPostgresPlaceholders } from './portable-sql.js';

test('? placeholders are numbered in order; IS ? and IS NOT ? keep their NULL-as-a-value meaning', () => {
  assert.equal(
    toPostgresPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (?, ?)'),
    'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)',
  );
  assert.equal(
    toPostgresPlaceholders('SELECT * FROM t WHERE a IS NOT ? AND b is ? AND c = ?'),
    'SELECT * FROM t WHERE a IS DISTINCT FROM $1 AND b IS NOT DISTINCT FROM $2 AND c = $3',
  );
  assert.equal(
    toPostgresPlaceholders('SELECT 1 WHERE x IS NOT NULL AND y = ?'),
    'SELECT 1 WHERE x IS NOT NULL AND y = $1',
  );
});

test('a ? in a literal, a quoted name, a dollar-quoted body or a comment is left alone', () => {
  assert.equal(
    toPostgresPlaceholders(`SELECT '¿qué?', 'it''s ?', "col?" FROM t -- ¿y esto?\nWHERE a = ? /* ? */ AND b = ?`),
    `SELECT '¿qué?', 'it''s ?', "col?" FROM t -- ¿y esto?\nWHERE a = $1 /* ? */ AND b = $2`,
  );
  assert.equal(toPostgresPlaceholders('SELECT $$ ? $$, $t$ ? $t$, ?'), 'SELECT $$ ? $$, $t$ ? $t$, $1');
});

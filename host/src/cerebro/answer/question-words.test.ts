import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentQuestion } from './question-words.js';

test('"vez" of a locution (en vez de, a la vez, cada vez) is no topic the question searches', () => {
  assert.equal(
    contentQuestion('¿Puedo ponerlos en archivos aparte en vez de en sources.list?'),
    'ponerlos en archivos aparte en de en sources.list',
  );
  assert.equal(
    contentQuestion('¿Qué uso para editarlo sin que otro lo modifique a la vez?'),
    'uso editarlo sin otro lo modifique a la',
  );
  assert.ok(!contentQuestion('¿Cuántas veces al año?').includes('veces'));
});

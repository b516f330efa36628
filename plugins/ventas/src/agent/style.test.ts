import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEmojiRules, fitLines, toPlainText } from './style.js';
import { endsWithQuestion, fold, sameWord, sentences } from './text.js';

test('plain text removes markdown but keeps the words', () => {
  assert.equal(
    toPlainText('## Oferta\n**Zapatillas** _livianas_\n- uno\n1. dos\n[ver](https://x.y)'),
    'Oferta\nZapatillas livianas\nuno\ndos\nver (https://x.y)',
  );
});

test('emoji rules: only allowed ones stay, mandatory ones are added once', () => {
  assert.equal(applyEmojiRules('Hola 🔥 😊\nChao', ['😊', '👟'], ['👟']), 'Hola 😊 👟\nChao');
  assert.equal(applyEmojiRules('Hola 👟', ['👟'], ['👟']), 'Hola 👟');
  assert.equal(applyEmojiRules('Hola 😊', [], []), 'Hola');
});

test('fitLines never exceeds max_lineas and never drops content', () => {
  const body = 'A.\nB\nC\nD';
  for (let max = 1; max <= 6; max++) {
    const out = fitLines(body, ['¿E?'], max);
    assert.ok(out.split('\n').length <= max, `${max}: ${out}`);
    for (const part of ['A.', 'B', 'C', 'D', '¿E?']) assert.ok(out.includes(part));
  }
  assert.equal(fitLines(body, ['¿E?'], 2), 'A. B; C; D\n¿E?');
});

test('text helpers: folding, typos, questions and sentences with thousands separators', () => {
  assert.equal(fold('¿Cuánto CUESTAAA la Muñeca?'), 'cuanto cuesta la muñeca');
  assert.ok(sameWord('zapatilas', 'zapatillas'));
  assert.ok(sameWord('camisetas', 'camiseta'));
  assert.ok(!sameWord('gato', 'pato'), 'short words need an exact match');
  assert.ok(endsWithQuestion('¿Te lo envío? 👟 '));
  assert.ok(!endsWithQuestion('¿Te lo envío? Listo.'));
  assert.deepEqual(sentences('Cuesta 45.000 COP. ¿Lo quieres?'), ['Cuesta 45.000 COP.', '¿Lo quieres?']);
});

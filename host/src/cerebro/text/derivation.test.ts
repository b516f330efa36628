import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryTermGroups, searchableTerms } from './analyzer.js';
import { familyOf } from './derivation.js';

/** Whether a question word meets a word of a text (the comparison relevance makes). */
const meets = (question: string, text: string) => {
  const terms = new Set(searchableTerms(text));
  return queryTermGroups(question)[0]!.some((t) => terms.has(t));
};

test('words of one family meet where the stemmer leaves them apart', () => {
  assert.equal(meets('aislante', 'aisladora'), true);
  assert.equal(meets('aislante', 'aislado'), true);
  assert.equal(meets('montar', 'montaje'), true);
  assert.equal(meets('devolver', 'devoluciones'), true);
  assert.equal(meets('devolución', 'devolver'), true);
  assert.equal(meets('cargador', 'cargar'), true);
  assert.equal(meets('vendedor', 'vender'), true);
});

test('a suffix is not taken off a root too short to name anything', () => {
  // "estante" is no "est-" word, "picante" no "pic-" one: too short to join them with anything.
  assert.equal(familyOf('estant'), null);
  assert.equal(familyOf('picant'), null);
  assert.equal(meets('estante', 'estar'), false);
  assert.equal(familyOf('mont'), null);
  assert.equal(familyOf('devolu'), 'devolv');
});

test('a plural of a word stressed on its last vowel meets its singular, with or without the accent', () => {
  for (const [question, text] of [
    ['sofá', 'sofás'],
    ['sofás', 'sofá'],
    ['sofas', 'sofás'],
    ['menú', 'menús'],
    ['cafes', 'cafés'],
  ])
    assert.equal(meets(question, text), true, `${question} / ${text}`);
});

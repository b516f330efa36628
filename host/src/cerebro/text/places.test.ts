// A place a question names meets the region, islands or country a document names it by.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryTermGroups, searchableTerms } from './analyzer.js';
import { containingPlaces } from './places.js';

/** Whether the question's first word meets a word of a text (the comparison relevance makes). */
const meets = (question: string, text: string) => {
  const terms = new Set(searchableTerms(text.toLowerCase()));
  return queryTermGroups(question)[0]!.some((t) => terms.has(t));
};

test('a city meets the province, region and part of the country that contain it', () => {
  assert.equal(meets('Palma', 'Baleares'), true);
  assert.equal(meets('Elche', 'Alicante'), true);
  assert.equal(meets('Elche', 'Valenciana'), true);
  assert.equal(meets('Sevilla', 'peninsular'), true);
  assert.equal(meets('Oporto', 'Portugal'), true);
  assert.equal(meets('Bilbao', 'Vizcaya'), true);
});

test('a place does not meet other places, and other words contain no place', () => {
  assert.equal(meets('Palma', 'peninsular'), false);
  assert.equal(meets('Sevilla', 'Canarias'), false);
  assert.deepEqual(containingPlaces('mesa'), []);
  // A name shared by places in two countries is left out rather than guessed.
  assert.deepEqual(containingPlaces('guadalajara'), []);
  // Containing names' common words are not searched: a stain or a cancellation is not a place.
  assert.equal(meets('Toledo', 'mancha'), false);
  assert.equal(meets('Tijuana', 'baja'), false);
  assert.equal(meets('Monterrey', 'nuevo'), false);
  assert.equal(meets('Toledo', 'Castilla'), true);
  assert.equal(meets('Tijuana', 'México'), true);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { passageTerms } from './passage-terms.js';

test("a link's scheme is not indexed; HTTPS said as a word and the address's host are", () => {
  const { terms, headingTerms } = passageTerms(
    'Descargue de https://www.debian.org la imagen. Apache sirve HTTPS.',
    ['Enlaces (ftp://ftp.debian.org)'],
    'es',
  );
  // One "https", the word's; the address's host is indexed.
  assert.deepEqual(
    terms.split(' ').filter((t) => t === 'https' || t === 'www'),
    ['www', 'https'],
  );
  // "ftp" of the host stays, the scheme's does not.
  assert.equal(headingTerms.split(' ').filter((t) => t === 'ftp').length, 1);
});

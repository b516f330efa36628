import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identifierFrom, loadLanguageIdentifier } from './language-identifier.js';

test('with eld installed, a French text is identified', async () => {
  const identify = await loadLanguageIdentifier();
  assert.equal(
    identify('Le chat dort sur le canapé pendant que les enfants jouent dans le jardin avec leurs amis.'),
    'fr',
  );
});

test('without eld (an optional peer), nothing is identified and nothing fails', async () => {
  // A real failed import, with the package name Node reports for a missing eld.
  const missing = Object.assign(new Error("Cannot find package 'eld' imported from /x/language-identifier.js"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
  const identify = await identifierFrom(() => Promise.reject(missing));
  assert.equal(identify('Le chat dort sur le canapé pendant que les enfants jouent dans le jardin.'), null);
});

test('any other failure to load eld is not hidden', async () => {
  const broken = new Error('datos de eld dañados');
  await assert.rejects(
    identifierFrom(() => Promise.reject(broken)),
    (e) => e === broken,
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, passwordMatches } from './password-digest.js';

test('scrypt digests: parameters and a fresh salt stored with each; only the right password matches', async () => {
  const a = await hashPassword('correcto caballo batería grapa');
  const b = await hashPassword('correcto caballo batería grapa');
  assert.match(a, /^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, b, 'a new salt per digest');
  assert.equal(await passwordMatches('correcto caballo batería grapa', a), true);
  assert.equal(await passwordMatches('correcto caballo batería grap', a), false);
  assert.equal(await passwordMatches('', a), false);
});

test('the same text typed in another Unicode form matches (NFC before hashing)', async () => {
  const composed = 'contraseña-segura';
  const decomposed = composed.normalize('NFD');
  assert.notEqual(composed, decomposed);
  assert.equal(await passwordMatches(decomposed, await hashPassword(composed)), true);
});

test('no digest, or a malformed one, never matches (and still costs a full derivation)', async () => {
  for (const stored of [null, undefined, '', 'plaintext', 'scrypt$15$8$1$short$short']) {
    const started = performance.now();
    assert.equal(await passwordMatches('cualquier clave', stored), false);
    assert.ok(performance.now() - started > 5, `${String(stored)}: answered without the scrypt work`);
  }
});

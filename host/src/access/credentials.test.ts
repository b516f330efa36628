import assert from 'node:assert/strict';
import { test } from 'node:test';
import { digestSecret, issueCredential, parseBearer, secretMatches } from './credentials.js';

test('issued keys have the contract format: crb_<16 hex>.<43 base64url>, and only the digest is kept', () => {
  const key = issueCredential('key');
  assert.match(key.token, /^crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/);
  const parsed = parseBearer(`Bearer ${key.token}`)!;
  assert.deepEqual([parsed.kind, parsed.id], ['key', key.id]);
  assert.deepEqual(key.digest, digestSecret(parsed.secret));
  assert.equal(key.digest.length, 32);
});

test('parseBearer accepts exactly the format and nothing else', () => {
  const secret = 'A'.repeat(43);
  assert.equal(parseBearer(`bearer crb_0123456789abcdef.${secret}`)?.kind, 'key');
  assert.equal(parseBearer(`Bearer crs_0123456789abcdef.${secret}`)?.kind, 'console');
  assert.equal(parseBearer(`Bearer cra_0123456789abcdef.${secret}`)?.kind, 'operator');
  for (const bad of [
    undefined,
    '',
    'Basic abc',
    `Bearer crb_0123456789ABCDEF.${secret}`,
    `Bearer crb_0123456789abcdef.${secret}x`,
    `Bearer crb_0123456789abcde.${secret}`,
    `Bearer xyz_0123456789abcdef.${secret}`,
    `Bearer crb_0123456789abcdef.${'A'.repeat(42)}=`,
  ]) {
    assert.equal(parseBearer(bad), null, String(bad));
  }
});

test('secretMatches compares digests: right secret true; unknown id, near misses and other secrets false', () => {
  const key = issueCredential('key');
  const secret = key.token.split('.')[1]!;
  assert.equal(secretMatches(secret, key.digest), true);
  assert.equal(secretMatches(secret, undefined), false);
  assert.equal(secretMatches(secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A'), key.digest), false);
  assert.equal(secretMatches(secret, Buffer.alloc(5)), false);
});

test('digests stay plain SHA-256 of the secret, so keys stored by earlier versions still match', async () => {
  const { createHash } = await import('node:crypto');
  const secret = issueCredential('key').token.split('.')[1]!;
  assert.deepEqual(digestSecret(secret), createHash('sha256').update(secret, 'utf8').digest());
});

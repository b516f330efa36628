import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CREDENTIAL_FORMAT,
  ProvenSecrets,
  digestSecret,
  issueCredential,
  parseBearer,
  parseCredential,
  sameSecret,
  secretMatches,
} from './credentials.js';

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

test('sameSecret: equal secrets only, wherever the difference is, and never a secret of another length', () => {
  const secret = issueCredential('key').token.split('.')[1]!;
  const flip = (c: string) => (c === 'A' ? 'B' : 'A');
  assert.equal(sameSecret(secret, `${secret}`), true);
  assert.equal(sameSecret(secret, flip(secret[0]!) + secret.slice(1)), false);
  assert.equal(sameSecret(secret, secret.slice(0, 42) + flip(secret[42]!)), false);
  assert.equal(sameSecret(secret, secret.slice(0, 42)), false);
  assert.equal(sameSecret(`${secret}x`, `${secret}x`), false);
});

test('ProvenSecrets: a proven secret is accepted for its own row object only; guesses are still refused', () => {
  const key = issueCredential('key');
  const secret = key.token.split('.')[1]!;
  const proven = new ProvenSecrets();
  const row = { secret_digest: key.digest };
  assert.equal(proven.matches(secret, row), true);
  assert.equal(proven.matches(secret, row), true);
  const nearMiss = secret.slice(0, 42) + (secret.endsWith('A') ? 'B' : 'A');
  assert.equal(proven.matches(nearMiss, row), false);
  assert.equal(proven.matches(secret, undefined), false);
  // A row read again after a change (a new secret) is another object: the old proof does not carry over.
  const reissued = { secret_digest: issueCredential('key').digest };
  assert.equal(proven.matches(secret, reissued), false);
  // A wrong secret tried first proves nothing for the right one.
  const fresh = { secret_digest: key.digest };
  assert.equal(proven.matches(nearMiss, fresh), false);
  assert.equal(proven.matches(secret, fresh), true);
});

test('parseCredential and parseBearer answer what the format expression answers, on near misses of every kind', () => {
  const token = issueCredential('key').token;
  const candidates = new Set<string>([token, token.replace('crb_', 'crs_'), token.replace('crb_', 'cra_')]);
  const replacements = ['A', 'z', 'f', 'g', 'F', '0', '-', '_', '.', ' ', '\t', 'ñ', '=', '+'];
  for (let i = 0; i < token.length; i++)
    for (const r of replacements) candidates.add(token.slice(0, i) + r + token.slice(i + 1));
  candidates.add(token.slice(1));
  candidates.add(`${token}A`);
  for (const text of candidates) {
    const parts = CREDENTIAL_FORMAT.exec(text);
    const expected = parts && { id: parts[2], secret: parts[3] };
    const parsed = parseCredential(text);
    assert.deepEqual(parsed && { id: parsed.id, secret: parsed.secret }, expected, text);
    const bearerRegex = /^Bearer\s+(\S+)\s*$/i.exec(`Bearer ${text}`);
    const viaRegex = bearerRegex ? parseCredential(bearerRegex[1]!) : null;
    assert.deepEqual(parseBearer(`Bearer ${text}`), viaRegex, text);
  }
  for (const spelling of [
    `bearer ${token}`,
    `Bearer\t${token}`,
    `Bearer  ${token}`,
    `Bearer ${token} `,
    `BEARER ${token}`,
  ])
    assert.equal(parseBearer(spelling)?.id, token.slice(4, 20), spelling);
  assert.equal(parseBearer(`Bearer ${token.slice(0, -1)} `), null);
});

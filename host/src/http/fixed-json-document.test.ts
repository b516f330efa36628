import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FixedJsonDocument } from './fixed-json-document.js';

const DOCUMENT = {
  openapi: '3.1.0',
  paths: Object.fromEntries(
    Array.from({ length: 50 }, (_, i) => [`/ruta/${i}`, { get: { summary: 'Lo mismo otra vez' } }]),
  ),
};

test('each coding carries the same document, compressed, with its own ETag and Vary', () => {
  const doc = new FixedJsonDocument(DOCUMENT);
  const plain = doc.reply({});
  const gzip = doc.reply({ 'accept-encoding': 'gzip' });
  const br = doc.reply({ 'accept-encoding': 'gzip, br' });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.deepEqual(JSON.parse((plain.body as Buffer).toString()), DOCUMENT);
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.deepEqual(JSON.parse(gunzipSync(gzip.body as Buffer).toString()), DOCUMENT);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.deepEqual(JSON.parse(brotliDecompressSync(br.body as Buffer).toString()), DOCUMENT);
  assert.ok((br.body as Buffer).length < (plain.body as Buffer).length / 5);
  assert.equal(new Set([plain, gzip, br].map((r) => r.headers.etag)).size, 3);
  for (const r of [plain, gzip, br]) {
    assert.equal(r.headers.vary, 'Accept-Encoding');
    assert.equal(r.headers['content-length'], String((r.body as Buffer).length));
  }
});

test('If-None-Match with any of its ETags (weak or strong, in a list, or *) answers 304 without a body', () => {
  const doc = new FixedJsonDocument(DOCUMENT);
  const etag = doc.reply({ 'accept-encoding': 'gzip' }).headers.etag!;
  for (const ifNoneMatch of [etag, `W/${etag}`, `"otro", ${etag}`, '*']) {
    const r = doc.reply({ 'accept-encoding': 'gzip', 'if-none-match': ifNoneMatch });
    assert.equal(r.status, 304, ifNoneMatch);
    assert.equal(r.body, undefined);
    assert.equal(r.headers.etag, etag);
  }
  assert.equal(doc.reply({ 'if-none-match': '"otro"' }).status, 200);
  assert.equal(new FixedJsonDocument({ ...DOCUMENT, openapi: '3.0.0' }).reply({ 'if-none-match': etag }).status, 200);
});

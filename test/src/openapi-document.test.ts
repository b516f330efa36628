import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestHost } from '@cerebro/sdk/testing';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET without fetch's automatic decompression, to see the bytes and headers the server really sends. */
function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

test('GET /api/openapi.json: compressed as the client accepts, with an ETag that answers 304', async (t) => {
  const h = await startTestHost(t, { discover: true });
  const url = `${h.url}/api/openapi.json`;
  const plain = await rawGet(url, {});
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.match(String(plain.headers['content-type']), /^application\/json/);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  const doc = JSON.parse(plain.body.toString());
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc, h.host.openapi(), 'the served document is the one the host built');

  const gzip = await rawGet(url, { 'accept-encoding': 'gzip, deflate' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.deepEqual(JSON.parse(gunzipSync(gzip.body).toString()), doc);
  const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.deepEqual(JSON.parse(brotliDecompressSync(br.body).toString()), doc);
  assert.ok(br.body.length < plain.body.length / 4, `br ${br.body.length} bytes vs ${plain.body.length}`);

  for (const answer of [plain, gzip, br]) {
    const etag = String(answer.headers.etag);
    assert.match(etag, /^"[^"]+"$/);
    const again = await rawGet(url, {
      'accept-encoding': String(answer.headers['content-encoding'] ?? 'identity'),
      'if-none-match': etag,
    });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, etag);
  }
  assert.equal((await rawGet(url, { 'if-none-match': '"otra-version"' })).status, 200);
});

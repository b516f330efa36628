// An answer sent before an upload's body was read must leave a keep-alive connection usable for the client's next
// request, or say `Connection: close`; it must never leave the rest of the body on the connection and reset it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeepAliveClient, multipartBytes, startTestHost, type KeepAliveResponse } from '@cerebro/sdk/testing';
import { filesForm } from './support/rag.js';

/** The connection after `first` either carried `second` (reused) or was announced closed by `first`. */
function assertUsableAfter(first: KeepAliveResponse, second: KeepAliveResponse): void {
  assert.equal(second.status, 200, second.text);
  if (first.headers.connection !== 'close')
    assert.equal(second.reusedSocket, true, 'the next request reused the connection');
}

test('load_documents: too many files, too large and a wrong type each answer early and keep the connection usable', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_DOC_MAX_FILES: '2', CEREBRO_DOC_MAX_BYTES: '4096' } });
  const client = new KeepAliveClient(`${h.url}/api`, h.writeKey);
  t.after(() => client.close());
  const path = `/rag/${h.spaceId}/load_documents`;
  const next = () => client.request('GET', `/rag/${h.spaceId}/documents`);

  const many = await multipartBytes(
    filesForm({ 'a.txt': 'uno', 'b.txt': 'dos', 'c.txt': 'tres', 'd.txt': 'x'.repeat(200_000) }),
  );
  const tooMany = await client.request('POST', path, {
    body: many.body,
    headers: { 'content-type': many.contentType },
  });
  assert.equal(tooMany.status, 413, tooMany.text);
  assertUsableAfter(tooMany, await next());

  const large = await multipartBytes(filesForm({ 'grande.txt': 'y'.repeat(300_000) }));
  const tooLarge = await client.request('POST', path, {
    body: large.body,
    headers: { 'content-type': large.contentType },
  });
  assert.equal(tooLarge.status, 413, tooLarge.text);
  assertUsableAfter(tooLarge, await next());

  const wrongType = await client.request('POST', path, {
    body: Buffer.alloc(100_000, 'z'),
    headers: { 'content-type': 'application/octet-stream' },
  });
  assert.equal(wrongType.status, 415, wrongType.text);
  assertUsableAfter(wrongType, await next());

  const empty = await multipartBytes(
    (() => {
      const f = new FormData();
      f.append('otro', 'valor');
      return f;
    })(),
  );
  const missing = await client.request('POST', path, {
    body: empty.body,
    headers: { 'content-type': empty.contentType },
  });
  assert.equal(missing.status, 422, missing.text);
  assertUsableAfter(missing, await next());

  // Refused before the handler (no credential): the body nobody read is discarded too.
  const anonymous = new KeepAliveClient(`${h.url}/api`, null);
  t.after(() => anonymous.close());
  const refused = await anonymous.request('POST', path, {
    body: many.body,
    headers: { 'content-type': many.contentType },
  });
  assert.equal(refused.status, 401, refused.text);
  const afterRefusal = await anonymous.request('GET', '/health');
  assert.equal(afterRefusal.status, 200, afterRefusal.text);
  if (refused.headers.connection !== 'close') assert.equal(afterRefusal.reusedSocket, true);

  // Small answers keep the connection: the rest of these bodies was drained, not left on the socket.
  assert.equal(tooMany.headers.connection === 'close' || tooLarge.headers.connection === 'close', false);
});

test('load_documents: an early answer to a body too large to drain says Connection: close', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_DOC_MAX_FILES: '1', CEREBRO_DOC_MAX_BYTES: '4096' } });
  const client = new KeepAliveClient(`${h.url}/api`, h.writeKey);
  t.after(() => client.close());
  // Declared far over the limit: refused before reading a byte; only the headers are sent, so nothing is left to drain.
  const answer = await client.requestHeadersOnly('POST', `/rag/${h.spaceId}/load_documents`, {
    'content-type': 'multipart/form-data; boundary=x',
    'content-length': String(64 * 1024 * 1024),
  });
  assert.equal(answer.status, 413);
  assert.equal(answer.headers.connection, 'close');
});

test('CEREBRO_KEEPALIVE_MS sets how long an idle connection stays open, and the answers say so', async (t) => {
  // Behind a balancer the hosts' keep-alive must outlast the balancer's idle reuse (README, scaling out).
  const h = await startTestHost(t, { env: { CEREBRO_KEEPALIVE_MS: '75000' } });
  const client = new KeepAliveClient(`${h.url}/api`, h.writeKey);
  t.after(() => client.close());
  const first = await client.request('GET', `/rag/${h.spaceId}/documents`);
  assert.equal(first.status, 200, first.text);
  assert.equal(first.headers['keep-alive'], 'timeout=75');
  const second = await client.request('GET', `/rag/${h.spaceId}/documents`);
  assert.equal(second.reusedSocket, true);
});

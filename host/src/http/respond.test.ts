import assert from 'node:assert/strict';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { Reply } from '@cerebro/sdk';
import { sendResult } from './respond.js';

/** Serves `result` through sendResult once and returns the raw response as the client got it. */
async function answered(
  result: unknown,
  own: Record<string, string> = { 'X-Request-Id': 'r' },
): Promise<{ headers: Record<string, unknown>; rawHeaders: string[]; body: string }> {
  const server = createServer((_req, res: ServerResponse) => sendResult(res, result, { ...own }));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((ok, fail) => {
      request({ port, host: '127.0.0.1', path: '/' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => ok({ headers: res.headers, rawHeaders: res.rawHeaders, body }));
      })
        .on('error', fail)
        .end();
    });
  } finally {
    server.close();
  }
}

test('answers with a whole body declare its length instead of being sent in chunks', async () => {
  for (const [result, body] of [
    [{ listo: true }, '{"listo":true}'],
    [Reply.json(201, { creado: 'ñandú' }), '{"creado":"ñandú"}'],
    [Reply.send(200, 'hola ñ', 'text/plain; charset=utf-8'), 'hola ñ'],
    [Reply.send(200, Buffer.from('bytes'), 'application/octet-stream'), 'bytes'],
  ] as const) {
    const got = await answered(result);
    assert.equal(got.body, body);
    assert.equal(got.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(got.headers['transfer-encoding'], undefined);
    assert.equal(got.headers['x-request-id'], 'r');
  }
});

test('a length the handler set is kept; streams and empty answers get none', async () => {
  const own = await answered(Reply.send(200, 'abc', 'text/plain', { 'Content-Length': '3' }));
  assert.equal(own.headers['content-length'], '3');
  const streamed = await answered(Reply.send(200, Readable.from(['a', 'b']), 'text/plain'));
  assert.deepEqual([streamed.body, streamed.headers['transfer-encoding']], ['ab', 'chunked']);
  const empty = await answered(Reply.empty());
  assert.equal(empty.headers['content-length'], undefined);
});

test('a reply header replaces the response header of the same name in another case: one line on the wire', async () => {
  const reply = Reply.send(200, Readable.from([Buffer.from('hola')]), 'text/plain', {
    'x-content-type-options': 'nosniff',
    vary: 'Accept-Encoding',
  });
  const { rawHeaders, body } = await answered(reply, {
    'X-Request-Id': 'r',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Origin',
  });
  const names = rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  assert.equal(names.filter((n) => n === 'x-content-type-options').length, 1, rawHeaders.join(' | '));
  assert.deepEqual(
    rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1]!.toLowerCase() === 'vary'),
    ['Accept-Encoding'],
    'the reply says last',
  );
  assert.equal(body, 'hola');
});

test("a route's no-store stays whatever Cache-Control its reply sets", async () => {
  const { headers } = await answered(Reply.json(200, { token: 'crb_x' }, { 'cache-control': 'public, max-age=60' }), {
    'Cache-Control': 'no-store',
  });
  assert.equal(headers['cache-control'], 'no-store');
});

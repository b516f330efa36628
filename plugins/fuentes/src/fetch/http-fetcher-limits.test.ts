// The page size cap is inclusive, as its messages say ("el máximo es N", "supera el máximo de N bytes"): a page of
// exactly the cap is read, one byte more is refused, whether the size is declared or only streamed.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { AddressPolicy } from '@cerebro/sdk';
import { FetchFailure } from './fetch-failure.js';
import { GuardedFetcher } from './http-fetcher.js';

const MAX = 64 * 1024;

test('a page of exactly max_bytes_pagina is read and one byte more is refused, declared or streamed', async (t) => {
  // /declarada/<n>: Content-Length n; /en-trozos/<n>: chunked, the size known only by reading.
  const srv = createServer((req, res) => {
    const [, kind, n] = (req.url ?? '').split('/');
    const body = Buffer.alloc(Number(n), 'a');
    if (kind === 'declarada')
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) }).end(body);
    else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(body.subarray(0, 1000));
      res.end(body.subarray(1000));
    }
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  t.after(
    () =>
      new Promise((ok) => {
        srv.closeAllConnections();
        srv.close(ok);
      }),
  );
  const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const fetcher = new GuardedFetcher(
    new AddressPolicy(['127.0.0.1']),
    { maxBytes: MAX, timeoutMs: 2000, maxRedirects: 3 },
    'prueba',
  );
  t.after(() => fetcher.close());

  for (const kind of ['declarada', 'en-trozos']) {
    for (const delta of [-1, 0, 1]) {
      const url = `${base}/${kind}/${MAX + delta}`;
      if (delta <= 0) {
        assert.equal((await fetcher.fetch({ url })).body.length, MAX + delta, url);
      } else {
        const failure = await fetcher.fetch({ url }).then(
          () => assert.fail(`${url} was read`),
          (e: unknown) => e as FetchFailure,
        );
        assert.equal(failure.code, 'demasiado_grande', url);
        assert.match(failure.message, new RegExp(String(MAX)));
      }
    }
  }
});

// The guarded fetcher's caps on a real loopback server: redirects, sizes (declared, streamed, compressed), time.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { AddressPolicy } from '@cerebro/sdk';
import { FetchFailure } from './fetch-failure.js';
import { GuardedFetcher } from './http-fetcher.js';

async function server(t: { after(fn: () => unknown): void }): Promise<string> {
  const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024, 'a'));
  const srv = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/bucle') return void res.writeHead(302, { location: '/bucle' }).end();
    if (path === '/declara')
      return void res.writeHead(200, { 'content-length': String(50 * 1024 * 1024), 'content-type': 'text/html' }).end();
    if (path === '/bomba')
      return void res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' }).end(bomb);
    if (path === '/comprimida')
      return void res
        .writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html; charset=utf-8' })
        .end(gzipSync('<p>hola</p>'));
    if (path === '/lenta') return void setTimeout(() => res.end('tarde'), 5000).unref();
    if (path === '/condicional')
      return void (req.headers['if-none-match'] === '"v1"'
        ? res.writeHead(304).end()
        : res.writeHead(200, { etag: '"v1"' }).end('cuerpo'));
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  t.after(
    () =>
      new Promise((ok) => {
        srv.closeAllConnections();
        srv.close(ok);
      }),
  );
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
}

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e as FetchFailure,
  );

test('caps: redirect loops, declared and streamed sizes (decompressed bytes count), time; gzip and 304 work', async (t) => {
  const base = await server(t);
  const fetcher = new GuardedFetcher(
    new AddressPolicy(['127.0.0.1']),
    { maxBytes: 1024 * 1024, timeoutMs: 500, maxRedirects: 3 },
    'prueba',
  );
  t.after(() => fetcher.close());
  assert.equal((await failureOf(fetcher.fetch({ url: `${base}/bucle` }))).code, 'demasiadas_redirecciones');
  assert.equal((await failureOf(fetcher.fetch({ url: `${base}/declara` }))).code, 'demasiado_grande');
  const bomb = await failureOf(fetcher.fetch({ url: `${base}/bomba` }));
  assert.equal(bomb.code, 'demasiado_grande', '5 MB inflated from a few kB stop at the 1 MB cap');
  const started = Date.now();
  assert.equal((await failureOf(fetcher.fetch({ url: `${base}/lenta` }))).code, 'tiempo_agotado');
  assert.ok(Date.now() - started < 4000);
  const ok = await fetcher.fetch({ url: `${base}/comprimida` });
  assert.deepEqual([ok.status, ok.body.toString(), ok.mediaType], [200, '<p>hola</p>', 'text/html']);
  const first = await fetcher.fetch({ url: `${base}/condicional` });
  const again = await fetcher.fetch({ url: `${base}/condicional`, etag: first.headers.etag as string });
  assert.deepEqual([again.status, again.notModified], [304, true]);
  const aborted = new AbortController();
  const pending = fetcher.fetch({ url: `${base}/lenta`, signal: aborted.signal });
  aborted.abort();
  assert.equal((await failureOf(pending)).code, 'cancelada');
});

test('a kept-alive socket the site closes as it is reused is asked again once on a new one', async (t) => {
  // Each connection answers its first request and drops the second unanswered: a site whose idle timeout closes the
  // socket just as the crawler reuses it.
  let connections = 0;
  const sockets = new Set<Socket>();
  const srv = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    let requests = 0;
    socket.on('data', (chunk) => {
      if (!chunk.includes('\r\n\r\n')) return;
      if (++requests > 1) return void socket.destroy();
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nsi',
      );
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  t.after(
    () =>
      new Promise((ok) => {
        for (const s of sockets) s.destroy();
        srv.close(ok);
      }),
  );
  const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const fetcher = new GuardedFetcher(
    new AddressPolicy(['127.0.0.1']),
    { maxBytes: 1024, timeoutMs: 2000, maxRedirects: 0, socketsPerHost: 1 },
    'prueba',
  );
  t.after(() => fetcher.close());
  assert.equal((await fetcher.fetch({ url: `${base}/1` })).body.toString(), 'si');
  assert.equal(
    (await fetcher.fetch({ url: `${base}/2` })).body.toString(),
    'si',
    "the reset on the reused socket is not the page's failure",
  );
  assert.equal(connections, 2);
});

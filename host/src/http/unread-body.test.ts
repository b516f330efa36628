import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { guardTrickledBodies } from './unread-body.js';

/** A server answering at once without reading bodies, its listener wrapped by guardTrickledBodies (grace 150 ms). */
async function guarded(t: import('node:test').TestContext) {
  let calls = 0;
  const server = createServer(
    guardTrickledBodies((_req, res) => {
      calls++;
      res.writeHead(200, { 'content-length': 2 });
      res.end('ok');
    }, 150),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, calls: () => calls, listeners: server.listeners('request') };
}

test('the guard wraps the listener: one request listener, called once per request', async (t) => {
  const g = await guarded(t);
  assert.equal(g.listeners.length, 1);
  const res = await fetch(`http://127.0.0.1:${g.port}/`);
  assert.equal(await res.text(), 'ok');
  assert.equal(g.calls(), 1);
});

test('a body still incomplete after the grace period costs its connection; a complete one keeps it', async (t) => {
  const g = await guarded(t);
  const closedAfter = (request: string) =>
    new Promise<number | null>((resolve) => {
      const socket = connect(g.port, '127.0.0.1', () => socket.write(request));
      const started = Date.now();
      socket.on('data', () => {});
      socket.on('close', () => resolve(Date.now() - started));
      // Still open well after the grace period: kept.
      setTimeout(() => {
        resolve(null);
        socket.destroy();
      }, 1000);
    });
  // Declares 10 bytes, sends 5 and stops: destroyed about 150 ms after the answer.
  const trickled = await closedAfter('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');
  assert.ok(trickled !== null && trickled >= 100 && trickled < 1000, `closed after ${trickled} ms`);
  // Sends its whole body: the keep-alive connection stays open.
  const whole = await closedAfter('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n12345');
  assert.equal(whole, null);
});

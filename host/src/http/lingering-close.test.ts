import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { closeLingering, LINGER_LIMITS } from './lingering-close.js';

const MB = 1024 * 1024;
const ANSWER = '{"detail":"Demasiado grande."}';

/** A server that answers every request at once, before reading its body, closing lingering within `limits`. */
async function earlyAnswering(
  limits: typeof LINGER_LIMITS,
): Promise<{ server: Server; port: number; bytesRead: Promise<number> }> {
  let reportBytes!: (n: number) => void;
  const bytesRead = new Promise<number>((resolve) => (reportBytes = resolve));
  const server = createServer((req, res) => {
    req.socket.once('close', () => reportBytes(req.socket.bytesRead));
    closeLingering(req, res, limits);
    res.writeHead(413, {
      connection: 'close',
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(ANSWER),
    });
    res.end(ANSWER);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, bytesRead };
}

/** Sends a request declaring `declared` bytes of body and writes `send` of them; reads until the connection ends. */
function upload(port: number, declared: number, send: number): Promise<{ reply: string; error: string | null }> {
  return new Promise((resolve) => {
    let reply = '';
    let error: string | null = null;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST /subir HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n`);
      socket.write(Buffer.alloc(send, 0x61));
      if (send === declared) socket.end();
    });
    socket.on('data', (c: Buffer) => (reply += c.toString('utf8')));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => resolve({ reply, error }));
  });
}

test('a body sent in full within the limits is read to its end, then the connection closes in order', async (t) => {
  const { server, port } = await earlyAnswering({ ms: 60_000, bytes: 64 * MB });
  t.after(() => server.close());
  const { reply, error } = await upload(port, 8 * MB, 8 * MB);
  assert.equal(error, null);
  assert.match(reply, /^HTTP\/1\.1 413 /);
  assert.ok(reply.endsWith(`\r\n\r\n${ANSWER}`), reply);
});

test('past the byte limit the server stops reading and closes; the answer was already delivered', async (t) => {
  const { server, port, bytesRead } = await earlyAnswering({ ms: 60_000, bytes: 1 * MB });
  t.after(() => server.close());
  const { reply } = await upload(port, 32 * MB, 32 * MB);
  assert.ok(reply.endsWith(`\r\n\r\n${ANSWER}`), reply);
  // Socket buffers let a few MB more in before the close; nowhere near the 32 MB sent.
  assert.ok((await bytesRead) < 8 * MB, `the server read ${await bytesRead} bytes`);
});

test('a client that stops sending midway is closed at the time limit', { timeout: 30_000 }, async (t) => {
  const { server, port } = await earlyAnswering({ ms: 200, bytes: 64 * MB });
  t.after(() => server.close());
  // Declares 1 MB, sends 1 KB and never ends: only the server's time limit ends the exchange.
  const { reply } = await upload(port, MB, 1024);
  assert.ok(reply.endsWith(`\r\n\r\n${ANSWER}`), reply);
});

// An early answer to a body too large to drain (over 16 MB) says `Connection: close`; the server then closes
// lingering (half-close, discard what still arrives for a bounded time and size, then close), so a client still
// sending its body reads the answer instead of a connection reset.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';

const MB = 1024 * 1024;

interface Exchange {
  reply: string;
  error: string | null;
}

/** Sends the head and `bodyBytes` of body at once, without waiting for an answer, and reads until the close. */
function sendWithoutWaiting(url: string, head: string, bodyBytes: number): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let reply = '';
    let error: string | null = null;
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      socket.end(Buffer.alloc(bodyBytes, 0x61));
    });
    socket.on('data', (c: Buffer) => (reply += c.toString('utf8')));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => resolve({ reply, error }));
  });
}

test('a client sending a 40 MB body to an early refusal reads the whole answer, not a reset', async (t) => {
  const h = await startTestHost(t);
  const head = [
    `POST /api/rag/${h.spaceId}/load_documents HTTP/1.1`,
    'Host: x',
    'Content-Type: multipart/form-data; boundary=x',
    `Content-Length: ${40 * MB}`,
    '',
    '',
  ].join('\r\n');
  // Several connections: the reset was a race between the server's close and the data still in flight.
  for (let i = 0; i < 4; i++) {
    const { reply, error } = await sendWithoutWaiting(h.url, head, 40 * MB);
    assert.equal(error, null, `connection ${i} ended with ${error}`);
    const [status, rest] = [reply.slice(0, reply.indexOf('\r\n')), reply.slice(reply.indexOf('\r\n\r\n') + 4)];
    assert.match(status, /^HTTP\/1\.1 401 /);
    assert.match(reply, /\r\nconnection: close\r\n/i);
    assert.ok(typeof JSON.parse(rest).detail === 'string', rest);
  }
  assert.equal((await h.client.get('/companies')).status, 200, 'the server keeps serving');
});

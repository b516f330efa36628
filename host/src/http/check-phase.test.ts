import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { admitReadRequests, handleInCheckPhase } from './check-phase.js';

const fakeExchange = (n: number) => [{ url: `/${n}` } as IncomingMessage, { n } as unknown as ServerResponse] as const;

test('a request is handled in the check phase, not inside the listener call, in arrival order', async () => {
  const handled: string[] = [];
  const listener = handleInCheckPhase((req, res) => {
    handled.push(`${req.url} ${(res as unknown as { n: number }).n}`);
  });
  listener(...fakeExchange(1));
  listener(...fakeExchange(2));
  assert.deepEqual(handled, [], 'nothing runs inside the parser callback');
  // A promise continuation runs before the check phase: still nothing handled.
  await Promise.resolve();
  assert.deepEqual(handled, []);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(handled, ['/1 1', '/2 2']);
});

test('admitReadRequests resolves only after every request queued before it entered its handler', async () => {
  const handled: string[] = [];
  const listener = handleInCheckPhase((req) => {
    handled.push(req.url!);
  });
  listener(...fakeExchange(1));
  listener(...fakeExchange(2));
  const admitted = admitReadRequests().then(() => [...handled]);
  assert.deepEqual(handled, []);
  assert.deepEqual(await admitted, ['/1', '/2']);
});

test('a real server answers keep-alive and pipelined requests on one connection, in order', async (t) => {
  const server = createServer(
    handleInCheckPhase((req, res) => {
      const body = `respuesta a ${req.url}`;
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  t.after(() => socket.destroy());
  let received = '';
  socket.setEncoding('latin1');
  const done = new Promise<void>((resolve) =>
    socket.on('data', (chunk: string) => {
      received += chunk;
      if ((received.match(/respuesta a/g) ?? []).length === 3) resolve();
    }),
  );
  // Three requests in one write: Node's parser reads them together; each is answered, in order.
  socket.write(['/a', '/b', '/c'].map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
  await done;
  const answers = received.match(/respuesta a \/[abc]/g);
  assert.deepEqual(answers, ['respuesta a /a', 'respuesta a /b', 'respuesta a /c']);
  assert.equal((received.match(/HTTP\/1\.1 200 OK/g) ?? []).length, 3);
});

test('a handler that throws does not hold up the other requests of its turn; its error is raised on its own', async () => {
  const handled: string[] = [];
  const raised: unknown[] = [];
  const listener = handleInCheckPhase(
    (req) => {
      if (req.url === '/2') throw new Error('fallo del manejador');
      handled.push(req.url!);
    },
    (err) => raised.push(err),
  );
  listener(...fakeExchange(1));
  listener(...fakeExchange(2));
  listener(...fakeExchange(3));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(handled, ['/1', '/3']);
  assert.deepEqual(
    raised.map((e) => (e as Error).message),
    ['fallo del manejador'],
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from 'node:net';
import { startTestHost } from '@cerebro/sdk/testing';
import { rawRequest } from './support/raw-http.js';

/** Sends bytes on a fresh socket and returns everything the server writes before closing. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let out = '';
    socket.on('data', (c) => (out += c.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
  });
}

test('headers over Node\'s limit answer 431 with a {"detail"} body, and the server keeps serving', async (t) => {
  const h = await startTestHost(t);
  const res = await rawRequest(h.url, {
    method: 'GET',
    path: '/api/companies',
    headers: { 'x-relleno': 'a'.repeat(20_000) },
  });
  assert.equal(res.status, 431);
  assert.deepEqual(res.json, {
    detail: 'Las cabeceras de la petición son demasiado grandes.',
    codigo: 'headers_too_large',
  });
  assert.equal((await h.client.get('/companies')).status, 200);
});

test('a request Node cannot parse answers 400 with a {"detail"} body', async (t) => {
  const h = await startTestHost(t);
  const reply = await rawExchange(
    h.url,
    'GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  );
  const [head, body] = reply.split('\r\n\r\n');
  assert.match(head!, /^HTTP\/1\.1 400 /);
  assert.match(head!, /content-type: application\/json/i);
  assert.deepEqual(JSON.parse(body!), { detail: 'Petición mal formada.', codigo: 'bad_request' });
});

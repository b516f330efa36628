import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { counterPlugin, echoPlugin } from './support/plugins.js';

test('a module route on a space without that module answers 403 with the contract text, before the handler runs', async (t) => {
  let called = false;
  const h = await startTestHost(t, {
    plugins: [
      echoPlugin(
        {},
        {
          leer: () => {
            called = true;
            return {};
          },
          escribir: () => ({}),
        },
      ),
    ],
    modules: ['api'],
  });
  const res = await h.client.get(`/mod/eco/${h.spaceId}/eco`);
  assert.equal(res.status, 403);
  assert.deepEqual(res.body, { detail: 'módulo no habilitado para este espacio', codigo: 'module_disabled' });
  assert.equal(called, false);
});

test('a plugin can set the exact 403 text of its module (the contract writes transcripcion with a final dot)', async (t) => {
  const h = await startTestHost(t, {
    plugins: [echoPlugin({ moduleDisabledDetail: 'módulo no habilitado para este espacio.' })],
    modules: [],
  });
  assert.deepEqual((await h.client.get(`/mod/eco/${h.spaceId}/eco`)).body, {
    detail: 'módulo no habilitado para este espacio.',
    codigo: 'module_disabled',
  });
});

test("no key, a malformed key and an unknown key answer 401; another owner's space answers 403", async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  assert.equal((await h.client.get(`/mod/eco/${h.spaceId}/eco`, { key: null })).status, 401);
  assert.equal((await h.client.get(`/mod/eco/${h.spaceId}/eco`, { key: 'basura' })).status, 401);
  assert.equal(
    (await h.client.get(`/mod/eco/${h.spaceId}/eco`, { key: `crb_0123456789abcdef.${'A'.repeat(43)}` })).status,
    401,
  );
  const other = await h.admin.createOwner({ name: 'Otro' });
  await h.admin.createSpace({ id: 'ajeno', ownerId: other.id, modules: ['api', 'eco'] });
  const res = await h.client.get('/mod/eco/ajeno/eco');
  assert.deepEqual(
    [res.status, res.body],
    [403, { detail: 'Sin acceso a este espacio.', codigo: 'space_not_reachable' }],
  );
  assert.equal((await h.client.get('/mod/eco/no-existe/eco')).status, 403);
});

test('a read key is refused on a write route of a plugin, and served on its read route', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin(), counterPlugin] });
  const reader = h.client.as(h.readKey);
  assert.equal((await reader.get(`/mod/eco/${h.spaceId}/eco`)).body.permiso, 'lee');
  for (const path of [`/mod/eco/${h.spaceId}/eco`, `/mod/contador/${h.spaceId}/visitas`]) {
    const res = await reader.post(path, { json: {} });
    assert.deepEqual(
      [res.status, res.body],
      [403, { detail: 'Tu cuenta es de solo lectura en este espacio.', codigo: 'read_only' }],
    );
  }
  assert.deepEqual((await h.client.post(`/mod/contador/${h.spaceId}/visitas`)).body, { n: 1 });
  assert.deepEqual((await h.client.post(`/mod/contador/${h.spaceId}/visitas`)).body, { n: 2 });
});

test('media types are case-insensitive: a body sent as APPLICATION/JSON is read, not silently replaced by {}', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  for (const type of ['APPLICATION/JSON', 'Application/Json; charset=utf-8', 'application/problem+json']) {
    const res = await h.client.post(`/mod/eco/${h.spaceId}/eco`, {
      body: '{"a":1}',
      headers: { 'content-type': type },
    });
    assert.deepEqual([res.status, res.body], [200, { recibido: { a: 1 } }], type);
  }
  const refused = await h.client.patch(`/companies/${h.spaceId}/api-config`, {
    body: '{"api_activa":"no"}',
    headers: { 'content-type': 'APPLICATION/JSON' },
  });
  assert.equal(refused.status, 422);
});

test('malformed JSON answers 400, another content type 415, an oversized body 413; none reaches the handler', async (t) => {
  let calls = 0;
  const h = await startTestHost(t, {
    plugins: [
      echoPlugin(
        {},
        {
          leer: () => ({}),
          escribir: (req) => {
            calls++;
            return { recibido: req.body };
          },
        },
      ),
    ],
    env: { CEREBRO_JSON_LIMIT_BYTES: '1024' },
  });
  const path = `/mod/eco/${h.spaceId}/eco`;
  const malformed = await h.client.post(path, { body: '{"a": ', headers: { 'content-type': 'application/json' } });
  assert.equal(malformed.status, 400);
  assert.match(malformed.body.detail, /no es JSON válido/);
  const wrongType = await h.client.post(path, {
    body: 'a=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(wrongType.status, 415);
  const big = await h.client.post(path, { json: { relleno: 'x'.repeat(5000) } });
  assert.equal(big.status, 413);
  assert.ok(typeof big.body.detail === 'string');
  assert.equal(calls, 0);
  const ok = await h.client.post(path, { json: { a: 1 } });
  assert.deepEqual([ok.status, ok.body, calls], [200, { recibido: { a: 1 } }, 1]);
});

test('an oversized chunked body (no Content-Length) is cut at the limit with 413', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()], env: { CEREBRO_JSON_LIMIT_BYTES: '1024' } });
  const url = new URL(`${h.url}/api/mod/eco/${h.spaceId}/eco`);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.writeKey}`,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.write('{"x":"');
    for (let i = 0; i < 10; i++) req.write('y'.repeat(1000));
    req.end('"}');
  });
  assert.equal(status, 413);
});

test('a handler error becomes a 500 with a reference, never the error message', async (t) => {
  const h = await startTestHost(t, {
    plugins: [
      echoPlugin(
        {},
        {
          leer: () => {
            throw new Error('secreto interno');
          },
          escribir: () => ({}),
        },
      ),
    ],
  });
  const res = await h.client.get(`/mod/eco/${h.spaceId}/eco`);
  assert.equal(res.status, 500);
  assert.doesNotMatch(res.text, /secreto interno/);
  assert.ok(res.body.detail.includes(res.headers.get('x-request-id')!));
});

test('unknown routes answer 404 and known paths with another method 405, both as {"detail"}', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  assert.deepEqual((await h.client.get('/no/existe')).body, {
    detail: 'Ruta no encontrada.',
    codigo: 'route_not_found',
  });
  const res = await h.client.delete(`/mod/eco/${h.spaceId}/eco`);
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'GET, POST');
});

test('the OpenAPI document lists host routes and every plugin route with permission and module', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin(), counterPlugin] });
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  assert.equal(doc.openapi, '3.1.0');
  const read = doc.paths['/mod/eco/{espacio}/eco'].get;
  assert.equal(read.operationId, 'eco.leer');
  assert.equal(read['x-cerebro-permiso'], 'lee');
  assert.equal(read['x-cerebro-modulo'], 'eco');
  assert.ok(doc.paths['/mod/contador/{espacio}/visitas'].post);
  assert.ok(doc.paths['/health'].get);
  assert.ok(doc.tags.some((tag: { name: string }) => tag.name === 'contador'));
});

test('a caller-supplied X-Request-Id is kept; a hostile one is replaced', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  const kept = await h.client.get('/health', { key: null, headers: { 'x-request-id': 'abc-123' } });
  assert.equal(kept.headers.get('x-request-id'), 'abc-123');
  const replaced = await h.client.get('/health', {
    key: null,
    headers: { 'x-request-id': '<script>alert(1)</script>' },
  });
  assert.notEqual(replaced.headers.get('x-request-id'), '<script>alert(1)</script>');
});

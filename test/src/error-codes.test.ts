// Machine-readable errors and security headers (issue #17, part 2).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { ERROR_CATALOGUE } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

test('every error body carries the catalogue codigo beside detail, inside and outside routes', async (t) => {
  const h = await startTestHost(t, {
    plugins: [
      echoPlugin(
        {},
        {
          leer: () => {
            throw new Error('fallo interno con datos privados');
          },
          escribir: (req) => req.body,
        },
      ),
    ],
  });
  const cases: [
    Promise<{ status: number; body: { detail: unknown; codigo: string }; headers: Headers }>,
    number,
    string,
  ][] = [
    [h.client.get('/no/existe'), 404, 'route_not_found'],
    [h.client.request('PUT', '/companies'), 405, 'method_not_allowed'],
    [h.client.get(`/mod/eco/otro-espacio/eco`), 403, 'space_not_reachable'],
    [h.client.get(`/mod/eco/${h.spaceId}/eco`), 500, 'internal'],
    [
      h.client.post(`/mod/eco/${h.spaceId}/eco`, { body: '{"a":', headers: { 'content-type': 'application/json' } }),
      400,
      'malformed_json',
    ],
    [h.client.post('/tokens', { json: { nombre: 5 } }), 422, 'validation_failed'],
  ];
  for (const [pending, status, codigo] of cases) {
    const res = await pending;
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['detail', 'codigo']);
    assert.equal(res.body.codigo, codigo);
    assert.equal(ERROR_CATALOGUE[codigo as keyof typeof ERROR_CATALOGUE].status, status);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', codigo);
  }
  const internal = await h.client.get(`/mod/eco/${h.spaceId}/eco`);
  assert.doesNotMatch(JSON.stringify(internal.body), /privados/, 'a 500 never shows the internal message');
});

test('401 answers carry WWW-Authenticate: Bearer, with error="invalid_token" only for a credential that was sent', async (t) => {
  const h = await startTestHost(t);
  const missing = await h.client.get('/companies', { key: null });
  assert.deepEqual([missing.status, missing.body.codigo], [401, 'missing_key']);
  assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="cerebro"');

  for (const key of [
    'basura',
    `crb_${'0'.repeat(16)}.${'a'.repeat(43)}`,
    (await h.admin.issueOperatorCredential('op')).token.replace(/.$/, 'x'),
  ]) {
    const res = await h.client.get('/companies', { key });
    assert.deepEqual([res.status, res.body.codigo], [401, 'invalid_key']);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="cerebro", error="invalid_token"');
  }
});

test('successful answers carry nosniff; answers with a new credential are not stored by caches', async (t) => {
  const h = await startTestHost(t);
  const list = await h.client.get('/tokens');
  assert.equal(list.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(list.headers.get('cache-control'), null, 'an answer without secrets keeps default caching rules');

  const created = await h.client.post('/tokens', { json: { nombre: 'nueva' } });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('cache-control'), 'no-store');

  const operator = (await h.admin.issueOperatorCredential('ops')).token;
  const key = await h.client.post(`/admin/propietarios/${h.ownerId}/claves`, {
    key: operator,
    json: { nombre: 'desde-admin' },
  });
  const session = await h.client.post(`/admin/propietarios/${h.ownerId}/sesiones`, { key: operator });
  assert.deepEqual([key.status, key.headers.get('cache-control')], [201, 'no-store']);
  assert.deepEqual([session.status, session.headers.get('cache-control')], [201, 'no-store']);
});

test("the README error-code table lists every catalogue code with its status, the plugins' own codes too", async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const transcripcion = (await import('@cerebro/plugin-transcripcion')).default as {
    manifest: { errors?: Record<string, { status: number }> };
  };
  assert.ok(transcripcion.manifest.errors?.ocupado, 'transcripcion declares its codes in its manifest');
  const missing = Object.entries({ ...ERROR_CATALOGUE, ...transcripcion.manifest.errors })
    .map(([code, { status }]) => `| \`${code}\` | ${status} |`)
    .filter((row) => !readme.includes(row));
  assert.deepEqual(missing, []);
});

// Hostile input on the operator routes (issue #16, defect 3): every bad id or value is a clear 4xx, never a 500.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

async function operatorHost(t: {
  after(fn: () => unknown): void;
}): Promise<{ h: TestHost; admin: TestHost['client'] }> {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  return { h, admin: h.client.as((await h.admin.issueOperatorCredential('ops')).token) };
}

/** A raw JSON text: object literals cannot carry an own `__proto__` key through JSON.stringify. */
const raw = (text: string) => ({ body: text, headers: { 'content-type': 'application/json' } });

test('unknown owner, space and account ids answer 404, not a foreign-key 500', async (t) => {
  const { admin } = await operatorHost(t);
  const cases = [
    admin.post('/admin/espacios', { json: { id: 'nuevo', propietario: 'own_nadie' } }),
    admin.post('/admin/propietarios/own_nadie/claves', { json: { nombre: 'k' } }),
    admin.post('/admin/propietarios/own_nadie/sesiones'),
    admin.patch('/admin/propietarios/own_nadie', { json: { solo_lectura: true } }),
    admin.patch('/admin/espacios/no-existe', { json: { api_activa: false } }),
    admin.put('/admin/espacios/no-existe/modulos/api'),
    admin.delete('/admin/espacios/no-existe/modulos/api'),
    admin.patch('/admin/cuentas/cta_nadie', { json: { suspendida: true } }),
    admin.post('/admin/cuentas/cta_nadie/creditos', { json: { cantidad: 5 } }),
  ];
  for (const res of await Promise.all(cases)) {
    assert.equal(res.status, 404, res.text);
    assert.equal(typeof res.body.detail, 'string');
  }
});

test('a key for spaces of another owner is refused', async (t) => {
  const { h, admin } = await operatorHost(t);
  const other = await admin.post('/admin/propietarios', { json: { nombre: 'Otra' } });
  const res = await admin.post(`/admin/propietarios/${other.body.id}/claves`, {
    json: { nombre: 'k', espacios: [h.spaceId] },
  });
  assert.equal(res.status, 404);
  assert.match(res.body.detail, new RegExp(h.spaceId));
  const badPermission = await admin.post(`/admin/propietarios/${other.body.id}/claves`, {
    json: { nombre: 'k', permiso: 'todo' },
  });
  assert.equal(badPermission.status, 422);
  assert.deepEqual(badPermission.body.detail[0].loc, ['body', 'permiso']);
});

test('negative or fractional credits on owner creation are 422 naming the field; nothing is created', async (t) => {
  const { admin } = await operatorHost(t);
  for (const creditos of [-1, 1.5]) {
    const res = await admin.post('/admin/propietarios', { json: { nombre: 'X', creditos } });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(
      res.body.detail.map((i: { loc: unknown[] }) => i.loc),
      [['body', 'creditos']],
    );
  }
  const zero = await admin.post('/admin/propietarios', { json: { nombre: 'X', creditos: 0 } });
  assert.equal(zero.status, 201);
  const empty = await admin.post('/admin/propietarios', { json: { nombre: '   ' } });
  assert.equal(empty.status, 422);
  assert.deepEqual(empty.body.detail[0].loc, ['body', 'nombre']);
});

test('prototype keys and unknown fields are 422 naming the field, never 500', async (t) => {
  const { h, admin } = await operatorHost(t);
  for (const text of [
    '{"nombre":"X","__proto__":{"creditos":5}}',
    '{"nombre":"X","toString":1}',
    '{"nombre":"X","constructor":{}}',
    '{"nombre":"X","sobra":1}',
  ]) {
    const res = await admin.post('/admin/propietarios', raw(text));
    assert.equal(res.status, 422, `${text}: ${res.text}`);
    const field = Object.keys(JSON.parse(text)).find((k) => k !== 'nombre');
    assert.deepEqual(
      res.body.detail.map((i: { loc: unknown[] }) => i.loc),
      [['body', field]],
      text,
    );
  }
  const proto = await admin.patch(`/admin/espacios/${h.spaceId}`, raw('{"__proto__":{"api_activa":false}}'));
  assert.equal(proto.status, 422);
  const missing = await admin.post('/admin/cuentas/' + h.accountId + '/creditos', raw('{"toString":5}'));
  assert.equal(missing.status, 422);
  assert.deepEqual(missing.body.detail.map((i: { loc: unknown[] }) => i.loc).sort(), [
    ['body', 'cantidad'],
    ['body', 'toString'],
  ]);
});

test('dates must be strict ISO 8601 calendar dates; they are stored in UTC', async (t) => {
  const { h, admin } = await operatorHost(t);
  for (const prueba_hasta of ['tomorrow', '2026-13-45', '2026-02-30', '2026-12-31T10:00:00']) {
    const res = await admin.patch(`/admin/espacios/${h.spaceId}`, { json: { prueba_hasta } });
    assert.equal(res.status, 422, prueba_hasta);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'prueba_hasta']);
  }
  const unpaid = await admin.patch(`/admin/cuentas/${h.accountId}`, { json: { impagada_desde: '2026-13-45' } });
  assert.equal(unpaid.status, 422);
  assert.deepEqual(unpaid.body.detail[0].loc, ['body', 'impagada_desde']);
  const created = await admin.post('/admin/espacios', {
    json: { id: 'prueba', propietario: h.ownerId, prueba_hasta: 'mañana' },
  });
  assert.equal(created.status, 422);

  const ok = await admin.patch(`/admin/espacios/${h.spaceId}`, { json: { prueba_hasta: '2999-12-31T18:00-05:00' } });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.prueba_hasta, '2999-12-31T23:00:00.000Z');
  assert.equal(
    (await h.client.get(`/mod/eco/${h.spaceId}/eco`)).status,
    200,
    'a trial ending in the future leaves the space usable',
  );
});

test('a PATCH that fails part-way changes nothing', async (t) => {
  const { h, admin } = await operatorHost(t);
  const res = await admin.patch(`/admin/espacios/${h.spaceId}`, {
    json: { api_activa: false, propietario: 'own_nadie' },
  });
  assert.equal(res.status, 404);
  assert.equal((await h.client.get(`/mod/eco/${h.spaceId}/eco`)).status, 200, 'the API switch was not turned off');
});

test('module ids must be api or a loaded plugin; unknown ids are never listed to clients', async (t) => {
  const { h, admin } = await operatorHost(t);
  const unknown = await admin.put(`/admin/espacios/${h.spaceId}/modulos/inventado`);
  assert.equal(unknown.status, 404);
  assert.match(unknown.body.detail, /inventado.*api, eco/);
  const inBody = await admin.post('/admin/espacios', {
    json: { id: 'nuevo', propietario: h.ownerId, modulos: ['api', 'inventado'] },
  });
  assert.equal(inBody.status, 422);
  assert.deepEqual(inBody.body.detail[0].loc, ['body', 'modulos', 1]);
  assert.equal((await admin.delete(`/admin/espacios/${h.spaceId}/modulos/inventado`)).status, 404);

  assert.equal((await admin.delete(`/admin/espacios/${h.spaceId}/modulos/eco`)).status, 200);
  assert.equal((await admin.put(`/admin/espacios/${h.spaceId}/modulos/eco`)).status, 200);
  const companies = await h.client.get('/companies');
  const space = companies.body.companies?.find?.((c: { id: string }) => c.id === h.spaceId) ?? companies.body;
  assert.doesNotMatch(JSON.stringify(space), /inventado/);
});

test('PATCH of an account changes only the payment fields it sends', async (t) => {
  const { h, admin } = await operatorHost(t);
  const path = `/admin/cuentas/${h.accountId}`;
  assert.equal((await admin.patch(path, { json: { suspendida: true } })).status, 200);
  const unpaid = await admin.patch(path, { json: { impagada_desde: '2026-11-01' } });
  assert.equal(unpaid.status, 200);
  assert.equal(unpaid.body.suspendida, true, 'sending only impagada_desde keeps the suspension');
  const lifted = await admin.patch(path, { json: { suspendida: false } });
  assert.deepEqual([lifted.body.suspendida, lifted.body.impagada_desde], [false, '2026-11-01T00:00:00.000Z']);
});

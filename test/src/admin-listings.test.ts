// The operator's listings and key revocation (issue #17, part 6): owners, spaces, keys with paging; DELETE /admin/claves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';

test('owners, spaces and keys are listed page by page and shown one by one, never with a secret', async (t) => {
  const h = await startTestHost(t);
  const admin = h.client.as((await h.admin.issueOperatorCredential('ops')).token);
  const second = await h.admin.createOwner({ name: 'Tienda Sol', email: 'sol@example.com', credits: 7 });
  await h.admin.createSpace({ id: 'sol', ownerId: second.id, modules: ['api'] });
  const issued = await h.admin.issueKey(second.id, 'web', ['sol'], 'lee');

  const owners = await admin.get(`/admin/propietarios?limite=1`);
  assert.equal(owners.status, 200);
  assert.equal(owners.body.total, 2);
  assert.equal(owners.body.limite, 1);
  assert.equal(owners.body.desde, 0);
  assert.equal(owners.body.propietarios.length, 1);
  const next = await admin.get(`/admin/propietarios?limite=1&desde=1`);
  // Two pages of one hold both owners, once each (same creation instant or not: the order is stable).
  assert.deepEqual(
    [owners.body.propietarios[0].id, next.body.propietarios[0].id].sort(),
    [h.ownerId, second.id].sort(),
  );
  const shown = (await admin.get(`/admin/propietarios/${second.id}`)).body;
  assert.deepEqual(shown, {
    id: second.id,
    nombre: 'Tienda Sol',
    email: 'sol@example.com',
    solo_lectura: false,
    cuenta: { id: second.cuenta, creditos: 7, impagada_desde: null, suspendida: false },
    espacios: ['sol'],
    creado: shown.creado,
  });

  const spaces = await admin.get(`/admin/espacios?propietario=${second.id}`);
  assert.equal(spaces.body.total, 1);
  assert.deepEqual(spaces.body.espacios[0], {
    id: 'sol',
    nombre: 'sol',
    propietario: second.id,
    cuenta: second.cuenta,
    modulos: ['api'],
    prueba_hasta: null,
    api_activa: true,
    solo_lectura_propietario: false,
    creado: spaces.body.espacios[0].creado,
  });
  assert.equal((await admin.get('/admin/espacios')).body.total, 2);
  assert.deepEqual((await admin.get('/admin/espacios/sol')).body, spaces.body.espacios[0]);

  const keys = await admin.get(`/admin/propietarios/${second.id}/claves`);
  assert.equal(keys.body.total, 1);
  assert.equal(keys.body.claves[0].id, issued.id);
  assert.equal(keys.body.claves[0].revocado, null);
  assert.doesNotMatch(keys.text, new RegExp(issued.token.split('.')[1]!.slice(0, 20)));
});

test('paging and ids out of range are clear 4xx answers', async (t) => {
  const h = await startTestHost(t);
  const admin = h.client.as((await h.admin.issueOperatorCredential('ops')).token);
  for (const query of ['limite=0', 'limite=201', 'desde=-1', 'limite=x']) {
    const res = await admin.get(`/admin/propietarios?${query}`);
    assert.equal(res.status, 422, query);
    assert.equal(res.body.detail[0].loc[0], 'query');
  }
  assert.equal((await admin.get('/admin/propietarios/own_nadie')).status, 404);
  assert.equal((await admin.get('/admin/espacios/no-existe')).status, 404);
  assert.equal((await admin.get(`/admin/espacios?propietario=own_nadie`)).status, 404);
  assert.equal((await admin.get('/admin/propietarios/own_nadie/claves')).status, 404);
  assert.equal((await admin.delete('/admin/claves/no-es-un-id')).status, 404);
  assert.equal((await h.client.get('/admin/propietarios')).status, 403);
});

test("DELETE /admin/claves/{id} revokes any owner's key at once; a second time is 409", async (t) => {
  const h = await startTestHost(t);
  const admin = h.client.as((await h.admin.issueOperatorCredential('ops')).token);
  assert.equal((await h.client.get('/companies')).status, 200);
  const id = h.writeKey.slice(4, 20);
  const res = await admin.delete(`/admin/claves/${id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { revocado: id });
  assert.equal((await h.client.get('/companies')).status, 401);
  assert.equal((await admin.delete(`/admin/claves/${id}`)).status, 409);
  const listed = await admin.get(`/admin/propietarios/${h.ownerId}/claves`);
  assert.match(listed.body.claves.find((k: { id: string }) => k.id === id).revocado, /^\d{4}-/);
});

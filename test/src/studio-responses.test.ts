// Real answers of Studio's routes match the response schemas the OpenAPI document declares (issue #14).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost, type TestResponse } from '@cerebro/sdk/testing';
import { ResponseContract } from './support/response-contract.js';
import { OWNER_EMAIL, OWNER_PASSWORD, browserRequest, signIn, withPassword } from './support/studio.js';

test("Studio routes, key usage, the operator's owner routes and the ventas person reply answer what they declare", async (t) => {
  const h = await startTestHost(t, { discover: true });
  const contract = new ResponseContract((await h.client.get('/openapi.json', { key: null })).body);
  const op = h.client.as((await h.admin.issueOperatorCredential('contrato')).token);
  const expectOk = (method: string, template: string, res: TestResponse) => {
    assert.ok(res.status < 300, `${method} ${template} answered ${res.status}: ${res.text.slice(0, 300)}`);
    contract.check(method, template, res);
    return res.body;
  };

  expectOk(
    'PATCH',
    '/admin/propietarios/{id}',
    await op.patch(`/admin/propietarios/${h.ownerId}`, { json: { email: OWNER_EMAIL, solo_lectura: false } }),
  );
  expectOk(
    'PUT',
    '/admin/propietarios/{id}/clave',
    await op.put(`/admin/propietarios/${h.ownerId}/clave`, { json: {} }),
  );
  expectOk(
    'PUT',
    '/admin/propietarios/{id}/clave',
    await op.put(`/admin/propietarios/${h.ownerId}/clave`, { json: { clave: OWNER_PASSWORD } }),
  );
  expectOk('POST', '/admin/propietarios/{id}/enlace', await op.post(`/admin/propietarios/${h.ownerId}/enlace`));

  await withPassword(h);
  const signedIn = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: OWNER_EMAIL, clave: OWNER_PASSWORD },
  });
  expectOk('POST', '/sesion', signedIn);
  const s = await signIn(h.url);
  const as = (method: string, path: string, json?: unknown) =>
    browserRequest(h.url, method, `/api${path}`, { cookie: s.cookie, csrf: s.csrf, json });
  expectOk('GET', '/sesion', await as('GET', '/sesion'));
  expectOk('GET', '/sesiones', await as('GET', '/sesiones'));
  expectOk('GET', '/perfil', await as('GET', '/perfil'));
  expectOk('PATCH', '/perfil', await as('PATCH', '/perfil', { nombre: 'Ana' }));
  const keyId = h.writeKey.slice(4, 20);
  await h.client.get('/companies');
  expectOk('GET', '/tokens/{id}/uso', await as('GET', `/tokens/${keyId}/uso?dias=3`));

  const base = `/mod/ventas/${h.spaceId}/conversaciones`;
  const lead = await h.client.post(base, { json: { mensaje: 'me pasas con un asesor humano por favor' } });
  assert.equal(lead.body.estado, 'derivada');
  expectOk(
    'POST',
    '/mod/ventas/{espacio}/conversaciones/{conversacion}/mensajes',
    await as('POST', `${base}/${lead.body.conversacion}/mensajes`, { texto: 'Te atiendo yo' }),
  );
  expectOk(
    'GET',
    '/mod/ventas/{espacio}/conversaciones/{conversacion}',
    await as('GET', `${base}/${lead.body.conversacion}`),
  );
  const other = (await as('GET', '/sesiones')).body.sesiones.find((x: { actual: boolean }) => !x.actual);
  expectOk('DELETE', '/sesiones/{id}', await as('DELETE', `/sesiones/${other.id}`));
  expectOk('DELETE', '/sesion', await as('DELETE', '/sesion'));
});

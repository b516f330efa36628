// Owners create and rename spaces from Studio within the allowance the operator sets (issue #26 item 3): the
// allowance's limits, the id and name rules, who may do it, and the audit log's record of each change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';

/** A host, the operator's client and the owner's Studio session (a `crs_` Bearer credential: no cookie, no CSRF). */
async function world(t: { after(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const h = await startTestHost(t, { env });
  const operator = h.client.as((await h.admin.issueOperatorCredential('ops')).token);
  const studio = h.client.as((await h.admin.issueConsoleSession(h.ownerId)).token);
  return { h, operator, studio };
}

const create = (studio: TestHost['client'], id: string, nombre?: string) =>
  studio.post('/companies', { json: nombre === undefined ? { id } : { id, nombre } });

test('by default only the operator creates spaces: the allowance is 0 and a creation is a 403 saying so', async (t) => {
  const { h, studio } = await world(t);
  assert.deepEqual((await studio.get('/cupo_espacios')).body, { max_espacios: 0, espacios: 1, disponibles: 0 });
  const refused = await create(studio, 'nuevo');
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.codigo, 'space_allowance_reached');
  assert.match(refused.body.detail, /solo el operador de la plataforma crea espacios/);
  assert.equal((await h.client.get('/companies')).body.espacios.length, 1, 'nothing was created');
});

test('within the allowance the owner creates spaces, billed to their account with the api module; past it, 403', async (t) => {
  const { h, operator, studio } = await world(t);
  const set = await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios: 3 } });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(set.body, { propietario: h.ownerId, propio: 3, max_espacios: 3, espacios: 1, disponibles: 2 });

  const made = await create(studio, 'tienda-sol', '  Tienda Sol  ');
  assert.equal(made.status, 201, made.text);
  assert.deepEqual(made.body.espacio, {
    id: 'tienda-sol',
    nombre: 'Tienda Sol',
    modulos: ['api'],
    api_activa: true,
    prueba_hasta: null,
  });
  const listed = (await studio.get('/companies')).body.espacios as { id: string; nombre: string }[];
  assert.deepEqual(listed.map((s) => [s.id, s.nombre]).sort(), [
    [h.spaceId, h.spaceId],
    ['tienda-sol', 'Tienda Sol'],
  ]);
  const space = (await operator.get('/admin/espacios/tienda-sol')).body;
  assert.deepEqual([space.propietario, space.cuenta], [h.ownerId, h.accountId], "billed to the owner's account");
  assert.equal((await create(studio, 'sin-nombre')).body.espacio.nombre, 'sin-nombre', 'the name defaults to the id');

  const past = await create(studio, 'cuarto');
  assert.equal(past.status, 403, past.text);
  assert.equal(past.body.codigo, 'space_allowance_reached');
  assert.match(past.body.detail, /los 3 espacios que puedes crear/);
  assert.deepEqual((await studio.get('/cupo_espacios')).body, { max_espacios: 3, espacios: 3, disponibles: 0 });

  // The operator's own creations are never limited; lowering the allowance removes nothing.
  assert.equal(
    (await operator.post('/admin/espacios', { json: { id: 'del-operador', propietario: h.ownerId } })).status,
    201,
  );
  await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios: 1 } });
  assert.deepEqual((await studio.get('/cupo_espacios')).body, { max_espacios: 1, espacios: 4, disponibles: 0 });
  assert.equal((await studio.get('/companies')).body.espacios.length, 4);
});

test('CEREBRO_OWNER_MAX_SPACES is the default; null returns an owner to it', async (t) => {
  const { h, operator, studio } = await world(t, { CEREBRO_OWNER_MAX_SPACES: '2' });
  assert.deepEqual((await studio.get('/cupo_espacios')).body, { max_espacios: 2, espacios: 1, disponibles: 1 });
  await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios: 0 } });
  assert.equal((await create(studio, 'uno-mas')).status, 403, 'an own 0 wins over the default');
  const back = await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios: null } });
  assert.deepEqual([back.body.propio, back.body.max_espacios], [null, 2]);
  assert.equal((await create(studio, 'uno-mas')).status, 201);
});

test('creations at once never pass the allowance together', async (t) => {
  const { h, operator, studio } = await world(t);
  await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios: 3 } });
  const answers = await Promise.all(['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => create(studio, id)));
  assert.deepEqual(answers.map((r) => r.status).sort(), [201, 201, 403, 403, 403]);
});

test('bad ids and names are a 422 naming the field; a taken id is a 409; keys and read-only owners cannot create', async (t) => {
  const { h, operator, studio } = await world(t);
  await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios: 10 } });
  for (const id of ['', 'Mayusculas', '-guion', 'con espacio', 'a'.repeat(64), 'ñandú']) {
    const res = await create(studio, id);
    assert.equal(res.status, 422, `${JSON.stringify(id)}: ${res.text}`);
    assert.equal(res.body.codigo, 'validation_failed');
    assert.deepEqual(res.body.detail[0].loc, ['body', 'id']);
    assert.match(res.body.detail[0].msg, /minúsculas, cifras/);
  }
  for (const nombre of ['   ', 'x'.repeat(121)]) {
    const res = await create(studio, 'bien', nombre);
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'nombre']);
  }
  const taken = await create(studio, h.spaceId);
  assert.equal(taken.status, 409, taken.text);
  assert.deepEqual(Object.keys(taken.body).sort(), ['codigo', 'detail']);
  assert.equal(taken.body.codigo, 'conflict');

  const byKey = await h.client.post('/companies', { json: { id: 'por-clave' } });
  assert.equal(byKey.status, 403);
  assert.equal(byKey.body.codigo, 'console_only');

  await operator.patch(`/admin/propietarios/${h.ownerId}`, { json: { solo_lectura: true } });
  const readOnly = await create(studio, 'solo-lectura');
  assert.equal(readOnly.status, 403, readOnly.text);
  assert.equal(readOnly.body.codigo, 'read_only');
});

test("renaming: trimmed, 1 to 120 characters (422 otherwise), the id stays; another owner's space is 403", async (t) => {
  const { h, operator, studio } = await world(t);
  const renamed = await studio.patch(`/companies/${h.spaceId}`, { json: { nombre: '  Ferretería El Martillo ' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual(renamed.body, {
    espacio: h.spaceId,
    nombre: 'Ferretería El Martillo',
    nombre_anterior: h.spaceId,
  });
  const listed = (await studio.get('/companies')).body.espacios as { id: string; nombre: string }[];
  assert.deepEqual(listed, [{ ...listed[0], id: h.spaceId, nombre: 'Ferretería El Martillo' }]);
  assert.equal((await h.client.patch(`/companies/${h.spaceId}`, { json: { nombre: 'Por clave' } })).status, 200);
  const readKey = await h.client.patch(`/companies/${h.spaceId}`, { json: { nombre: 'x' }, key: h.readKey });
  assert.equal(readKey.status, 403, 'a lee key cannot rename');

  for (const [nombre, why] of [
    ['', 'empty'],
    ['   ', 'blank'],
    ['x'.repeat(121), 'too long'],
  ] as const) {
    const res = await studio.patch(`/companies/${h.spaceId}`, { json: { nombre } });
    assert.equal(res.status, 422, `${why}: ${res.text}`);
    assert.equal(res.body.codigo, 'validation_failed');
    assert.deepEqual(res.body.detail[0].loc, ['body', 'nombre'], why);
    assert.equal(typeof res.body.detail[0].msg, 'string');
  }
  assert.equal((await studio.patch(`/companies/${h.spaceId}`, { json: {} })).status, 422, 'nombre is required');
  assert.equal((await studio.patch(`/companies/${h.spaceId}`, { json: { nombre: 'ok', id: 'otro' } })).status, 422);

  const other = await operator.post('/admin/propietarios', { json: { nombre: 'Otra' } });
  await operator.post('/admin/espacios', { json: { id: 'ajeno', propietario: other.body.id } });
  const foreign = await studio.patch('/companies/ajeno', { json: { nombre: 'Mío' } });
  assert.equal(foreign.status, 403, foreign.text);
  assert.equal(foreign.body.codigo, 'space_not_reachable');
  assert.equal((await operator.get('/admin/espacios/ajeno')).body.nombre, 'ajeno', 'unchanged');
});

test("the audit log records the creation, the rename (before and after) and the operator's allowance", async (t) => {
  const { h, operator, studio } = await world(t);
  await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios: 2 } });
  await create(studio, 'nuevo', 'Nuevo');
  await studio.patch('/companies/nuevo', { json: { nombre: 'Más nuevo' } });
  const events = (await studio.get('/auditoria')).body.eventos as {
    accion: string;
    espacio: string | null;
    actor: { tipo: string };
    detalles: Record<string, unknown> | null;
    despues: unknown;
  }[];
  const byAction = (action: string) => events.find((e) => e.accion === action);
  assert.deepEqual([byAction('espacio.creado')?.espacio, byAction('espacio.creado')?.actor.tipo], ['nuevo', 'persona']);
  const rename = byAction('espacio.renombrado');
  assert.equal(rename?.espacio, 'nuevo');
  assert.deepEqual(rename?.detalles, { nombre_anterior: 'Nuevo' });
  assert.deepEqual(rename?.despues, { nombre: 'Más nuevo' });
  const allowance = byAction('propietario.cupo_espacios_modificado');
  assert.equal(allowance?.actor.tipo, 'operador');
});

test('the operator reads and sets allowances: unknown owners 404, bad values 422', async (t) => {
  const { h, operator } = await world(t);
  assert.deepEqual((await operator.get(`/admin/propietarios/${h.ownerId}/cupo_espacios`)).body, {
    propietario: h.ownerId,
    propio: null,
    max_espacios: 0,
    espacios: 1,
    disponibles: 0,
  });
  assert.equal((await operator.get('/admin/propietarios/own_nadie/cupo_espacios')).status, 404);
  assert.equal(
    (await operator.put('/admin/propietarios/own_nadie/cupo_espacios', { json: { max_espacios: 1 } })).status,
    404,
  );
  for (const max_espacios of [-1, 1.5, '3', 10_001]) {
    const res = await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: { max_espacios } });
    assert.equal(res.status, 422, `${JSON.stringify(max_espacios)}: ${res.text}`);
  }
  assert.equal((await operator.put(`/admin/propietarios/${h.ownerId}/cupo_espacios`, { json: {} })).status, 422);
  assert.equal((await h.client.get(`/admin/propietarios/${h.ownerId}/cupo_espacios`)).status, 403, 'not for keys');
});

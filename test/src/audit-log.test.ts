// The audit log (issue #26 item 2) against the real host: what the pipeline records by itself for the host's and
// the plugins' writes, sign-ins, who may read it, filters, paging, the export, and the operator's view.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { filesForm, waitIndexed } from './support/rag.js';
import { OWNER_EMAIL, OWNER_PASSWORD, browserRequest, signIn, withPassword } from './support/studio.js';

interface AuditEvent {
  id: string;
  accion: string;
  actor: { tipo: string; id: string; email: string | null; nombre: string | null };
  objetivo: { tipo: string; id: string } | null;
  espacio: string | null;
  propietario: string | null;
  ip: string | null;
  ruta: string | null;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
  detalles: Record<string, unknown> | null;
}

/**
 * The events a listing answers, read once: a write's event is stored before its answer is sent, so the listing read
 * right after the last answer must already hold all `count` of them (and, with `newest`, have that action first).
 */
async function eventsOf(
  h: TestHost,
  path: string,
  count: number,
  key = h.writeKey,
  newest?: string,
): Promise<AuditEvent[]> {
  const res = await h.client.get(path, { key });
  assert.equal(res.status, 200, res.text);
  const events: AuditEvent[] = res.body.eventos;
  assert.ok(events.length >= count, `${path}: ${events.length} eventos, se esperaban ${count}`);
  if (newest !== undefined) assert.equal(events[0]?.accion, newest, path);
  return events;
}

test('keys, settings, plugins and documents are recorded with who, what, where from, and settings before/after', async (t) => {
  const h = await startTestHost(t, { discover: true, env: { CEREBRO_TRUST_PROXY: 'loopback' } });
  const space = h.spaceId;
  const from = { 'x-forwarded-for': '203.0.113.9' };

  const created = await h.client.post('/tokens', { json: { nombre: 'widget', permiso: 'lee' }, headers: from });
  assert.equal(created.status, 201, created.text);
  const secret: string = created.body.token.token;
  const keyId: string = created.body.token.id;
  // A raised limit: polling the indexing below on a loaded machine must never meet a lowered one.
  assert.equal(
    (await h.client.patch(`/companies/${space}/api-config`, { json: { limite_por_minuto: 5000 } })).status,
    200,
  );
  const brand = await h.client.patch(`/mod/marca/${space}/config`, { json: { identidad: { nombre_agente: 'Lucía' } } });
  assert.equal(brand.status, 200, brand.text);
  const upload = await h.client.post(`/rag/${space}/load_documents`, {
    body: filesForm({ 'guia.md': '# Guía\n\nEl texto secreto del documento: tornillos de 8 mm.' }),
  });
  assert.equal(upload.status, 202, upload.text);
  await waitIndexed(h.client, space);
  const asked = await h.client.post(`/rag/${space}/conversations`, { json: { pregunta: '¿Qué tornillos hay?' } });
  assert.equal(asked.status, 200, asked.text);
  assert.equal((await h.client.delete(`/tokens/${keyId}`)).status, 200);

  const events = await eventsOf(h, '/auditoria', 5);
  assert.deepEqual(
    events.map((e) => e.accion),
    ['clave.revocada', 'documento.subido', 'marca.configuracion.modificada', 'api_config.modificada', 'clave.creada'],
    'newest first; a question changes nothing and is not recorded',
  );
  const byAction = Object.fromEntries(events.map((e) => [e.accion, e]));
  const creation = byAction['clave.creada']!;
  assert.deepEqual(creation.actor, {
    tipo: 'clave',
    id: h.writeKey.slice(4, 20),
    email: null,
    nombre: 'pruebas-escribe',
  });
  assert.deepEqual(creation.objetivo, { tipo: 'clave', id: keyId });
  assert.equal(creation.ip, '203.0.113.9', 'the client address behind the trusted proxy');
  assert.equal(creation.propietario, h.ownerId);
  assert.equal(creation.ruta, 'POST /tokens');
  assert.equal(creation.despues?.nombre, 'widget');
  assert.equal(creation.despues?.token, '[oculto]');

  const limits = byAction['api_config.modificada']!;
  assert.equal(limits.espacio, space);
  assert.notEqual(limits.antes?.limite_por_minuto, 5000);
  assert.equal(limits.despues?.limite_por_minuto, 5000);

  const marca = byAction['marca.configuracion.modificada']!;
  const agent = (settings: Record<string, unknown> | null) =>
    (settings as { identidad: { nombre_agente: string } }).identidad.nombre_agente;
  assert.equal(agent(marca.despues), 'Lucía');
  assert.notEqual(agent(marca.antes), 'Lucía');

  const documents = byAction['documento.subido']!.detalles?.documentos as { nombre: string }[];
  assert.deepEqual(
    documents.map((d) => d.nombre),
    ['guia.md'],
  );
  assert.deepEqual(byAction['clave.revocada']!.objetivo, { tipo: 'clave', id: keyId });

  const exported = await fetch(`${h.url}/api/auditoria/exportar`, {
    headers: { authorization: `Bearer ${h.writeKey}` },
  });
  assert.equal(exported.status, 200);
  assert.match(exported.headers.get('content-type') ?? '', /application\/x-ndjson/);
  assert.match(exported.headers.get('content-disposition') ?? '', /attachment; filename="actividad-.*\.jsonl"/);
  const text = await exported.text();
  const lines = text.trim().split('\n');
  assert.equal(lines.length, 5);
  assert.deepEqual(JSON.parse(lines[0]!), events[0]);
  assert.ok(!text.includes(secret.split('.')[1]!), 'never a key secret');
  assert.ok(!text.includes('texto secreto'), 'never document text');
});

test('an upload that stored nothing (every file refused) records no event; one that stored a file records all', async (t) => {
  const h = await startTestHost(t);
  const path = `/rag/${h.spaceId}/load_documents`;
  const refused = await h.client.post(path, { body: filesForm({ '../../etc/passwd': 'x', '/etc/shadow': 'y' }) });
  assert.equal(refused.status, 202, refused.text);
  assert.deepEqual(
    refused.body.documentos.map((d: { estado: string }) => d.estado),
    ['rechazado', 'rechazado'],
  );
  assert.deepEqual((await h.client.get('/auditoria')).body.eventos, [], 'nothing was stored: nothing to audit');

  const mixed = await h.client.post(path, { body: filesForm({ 'notas.txt': 'hola', '../fuera.txt': 'z' }) });
  assert.equal(mixed.status, 202, mixed.text);
  const [event] = await eventsOf(h, '/auditoria', 1, h.writeKey, 'documento.subido');
  assert.deepEqual(
    (event!.detalles!.documentos as { nombre: string; estado: string }[]).map((d) => [
      d.nombre,
      d.estado === 'rechazado',
    ]),
    [
      ['notas.txt', false],
      ['../fuera.txt', true],
    ],
  );
  assert.equal((await h.client.get('/auditoria')).body.eventos.length, 1);
});

test('who may read: Studio and write keys; a read key never; the whole account only with every space', async (t) => {
  const h = await startTestHost(t);
  const space = h.spaceId;
  await h.client.patch(`/companies/${space}/api-config`, { json: { limite_por_minuto: 40 } });
  const readSpace = await h.client.get(`/companies/${space}/auditoria`, { key: h.readKey });
  assert.equal(readSpace.status, 403);
  assert.equal(readSpace.body.codigo, 'audit_not_allowed');
  assert.equal((await h.client.get('/auditoria', { key: h.readKey })).body.codigo, 'audit_not_allowed');
  assert.equal((await h.client.get(`/companies/${space}/auditoria/exportar`, { key: h.readKey })).status, 403);
  const narrow = await h.client.post('/tokens', { json: { nombre: 'solo-pruebas', espacios: [space] } });
  const narrowKey: string = narrow.body.token.token;
  assert.equal((await h.client.get(`/companies/${space}/auditoria`, { key: narrowKey })).status, 200);
  const whole = await h.client.get('/auditoria', { key: narrowKey });
  assert.equal(whole.status, 403);
  assert.match(whole.body.detail, /todos los espacios/);
  await withPassword(h);
  const session = await signIn(h.url);
  const viaStudio = await browserRequest(h.url, 'GET', `/api/companies/${space}/auditoria`, { cookie: session.cookie });
  assert.equal(viaStudio.status, 200);
  assert.ok(viaStudio.body.eventos.some((e: AuditEvent) => e.accion === 'api_config.modificada'));
  const operator = await h.admin.issueOperatorCredential('auditor');
  assert.equal((await h.client.get(`/companies/${space}/auditoria`, { key: operator.token })).status, 403);
  const bad = await h.client.get(`/companies/${space}/auditoria?fecha_desde=ayer`);
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.body.detail[0].loc, ['query', 'fecha_desde']);

  // The operator moves the space to another owner: its earlier history stays with the earlier owner.
  const other = await h.admin.createOwner({ name: 'Otra empresa' });
  await h.admin.assignSpace(space, other.id);
  const otherKey = (await h.admin.issueKey(other.id, 'otra', [], 'escribe')).token;
  const moved = await h.client.get(`/companies/${space}/auditoria`, { key: otherKey });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(moved.body.eventos, []);
});

test('Studio sign-ins, failed ones and password changes are recorded for the person; the operator sees the platform', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_TRUST_PROXY: 'loopback' } });
  await withPassword(h);
  const headers = { 'x-forwarded-for': '198.51.100.4' };
  const failed = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: OWNER_EMAIL, clave: 'no es la clave' },
    headers,
  });
  assert.equal(failed.status, 401);
  await browserRequest(h.url, 'POST', '/api/sesion', { json: { email: 'nadie@example.com', clave: 'x' } });
  const session = await signIn(h.url, OWNER_EMAIL, OWNER_PASSWORD, headers);
  const changed = await browserRequest(h.url, 'PATCH', '/api/perfil', {
    cookie: session.cookie,
    csrf: session.csrf,
    json: { clave_actual: OWNER_PASSWORD, clave_nueva: 'otra clave larga y segura' },
    headers,
  });
  assert.equal(changed.status, 200, changed.text);

  const mine = await eventsOf(h, '/auditoria', 3);
  assert.deepEqual(
    mine.map((e) => e.accion),
    ['perfil.clave_cambiada', 'sesion.iniciada', 'sesion.fallida'],
  );
  for (const e of mine) {
    assert.equal(e.actor.tipo, 'persona');
    assert.equal(e.actor.id, h.ownerId);
    assert.equal(e.actor.email, OWNER_EMAIL);
    assert.equal(e.ip, '198.51.100.4');
  }
  assert.deepEqual(mine[2]!.detalles, { motivo: 'credenciales_incorrectas' });
  assert.ok(!JSON.stringify(mine).includes('otra clave larga'), 'never a password');

  const operator = await h.admin.issueOperatorCredential('auditor');
  const credits = await h.client.post(`/admin/cuentas/${h.accountId}/creditos`, {
    key: operator.token,
    json: { cantidad: 25 },
  });
  assert.equal(credits.status, 200, credits.text);
  const platform = await eventsOf(h, '/admin/auditoria?limite=2', 2, operator.token, 'creditos.anadidos');
  assert.equal(platform[0]!.accion, 'creditos.anadidos');
  assert.equal(platform[0]!.actor.tipo, 'operador');
  assert.equal(platform[0]!.propietario, h.ownerId, "the operator's change shows in the owner's log too");
  const spaced = await h.client.post('/admin/espacios', {
    key: operator.token,
    json: { id: 'segunda', propietario: h.ownerId },
  });
  assert.equal(spaced.status, 201, spaced.text);
  const [creation] = await eventsOf(h, '/auditoria?accion=espacio.creado', 1);
  assert.equal(creation!.espacio, 'segunda', "a space the operator created is in its owner's log");
  const unknown = await h.client.get('/admin/auditoria?actor=nadie@example.com', { key: operator.token });
  assert.deepEqual(
    unknown.body.eventos.map((e: AuditEvent) => [e.accion, e.propietario]),
    [['sesion.fallida', null]],
    "a failed sign-in with nobody's email is the platform's",
  );
  const owned = await eventsOf(h, '/auditoria?accion=creditos.', 1);
  assert.equal(owned[0]!.detalles?.cantidad, 25);

  // Paging: three at a time through the owner's five events, by cursor.
  const first = await h.client.get('/auditoria?limite=3');
  assert.equal(first.body.eventos.length, 3);
  const second = await h.client.get(`/auditoria?limite=3&cursor=${first.body.siguiente}`);
  assert.equal(second.body.siguiente, null, 'the last page says there is no next one');
  const ids = [...first.body.eventos, ...second.body.eventos].map((e: AuditEvent) => e.id);
  assert.equal(new Set(ids).size, ids.length, 'no event twice');
  assert.equal(ids.length, 5);
  const byKind = await h.client.get('/auditoria?actor_tipo=operador');
  assert.deepEqual(
    byKind.body.eventos.map((e: AuditEvent) => e.accion),
    ['espacio.creado', 'creditos.anadidos'],
  );
});

test('every write route of the host and of the first-party plugins names its audit action (or says it changes nothing)', async (t) => {
  const h = await startTestHost(t, { discover: true });
  const routes = (h.host as unknown as { routes: { operationId: string; method: string; audit?: unknown }[] }).routes;
  const writes = routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
  assert.ok(writes.length > 50);
  const unnamed = writes
    .filter((r) => !r.operationId.startsWith('core.absentModule'))
    .filter((r) => r.audit !== false && typeof (r.audit as { action?: unknown } | undefined)?.action === 'undefined')
    .map((r) => r.operationId);
  assert.deepEqual(unnamed, [], 'a stable dotted name instead of the operationId default');
});

test("a key's limits are recorded before and after; a change that changes nothing is not recorded", async (t) => {
  const h = await startTestHost(t);
  const created = await h.client.post('/tokens', { json: { nombre: 'widget', permiso: 'lee' } });
  assert.equal(created.status, 201, created.text);
  const keyId: string = created.body.token.id;
  const limited = await h.client.patch(`/tokens/${keyId}`, { json: { limite_por_minuto: 30 } });
  assert.equal(limited.status, 200, limited.text);
  assert.equal((await h.client.patch(`/tokens/${keyId}`, { json: {} })).status, 200);
  assert.equal((await h.client.patch(`/tokens/${keyId}`, { json: { limite_por_minuto: 30 } })).status, 200);
  const changes = await eventsOf(h, '/auditoria?accion=clave.limites_modificados', 1);
  assert.equal(changes.length, 1, 'only the change that changed something');
  assert.deepEqual(changes[0]!.antes, { limite_por_minuto: null, cuota_diaria: null });
  assert.deepEqual(changes[0]!.despues, { limite_por_minuto: 30, cuota_diaria: null });
  assert.deepEqual(changes[0]!.objetivo, { tipo: 'clave', id: keyId });
});

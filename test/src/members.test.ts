// Members and roles (issue #26 item 1) against the real host: invitations, each role's allowed and refused
// operations, removal and role changes ending sessions at once, a member of two owners' spaces, the audit log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { ResponseContract } from './support/response-contract.js';
import { MEMBER_PASSWORD, as, member, ownerSession, tokenOf } from './support/members.js';
import {
  OWNER_EMAIL,
  OWNER_PASSWORD,
  browserRequest,
  cookieFrom,
  signIn,
  studioAdmin,
  type BrowserResponse,
} from './support/studio.js';

/** An audit event as `GET /companies/{espacio}/auditoria` lists it (the fields these tests read). */
interface AuditEventView {
  accion: string;
  actor: { tipo: string; id: string; email: string | null; nombre: string | null };
  objetivo: { tipo: string; id: string } | null;
  propietario: string | null;
  antes: { rol?: string; email?: string } | null;
  despues: { rol?: string } | null;
  detalles: Record<string, unknown> | null;
}

const ROLE_REFUSED = (role: string) => ({
  detail: `Tu rol en este espacio (${role}) no permite esta operación.`,
  codigo: 'role_insufficient',
});

test('an invitation is a one-time link to copy; accepting it signs the new member in to their spaces only', async (t) => {
  const h = await startTestHost(t);
  await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId });
  const owner = await ownerSession(h);
  const invited = await as(h.url, owner)('POST', `/companies/${h.spaceId}/miembros`, {
    email: ' Ana@Example.com ',
    rol: 'edita',
  });
  assert.equal(invited.status, 201, invited.text);
  assert.equal(invited.headers.get('cache-control'), 'no-store');
  assert.equal(invited.body.email, 'ana@example.com');
  assert.equal(invited.body.enviada, false, 'no mail server: the link is shown, never claimed as sent');
  assert.match(invited.body.enlace, /\/studio\/invitacion\?token=[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/);
  const pending = await as(h.url, owner)('GET', `/companies/${h.spaceId}/invitaciones`);
  assert.deepEqual(
    pending.body.invitaciones.map((i: { email: string; rol: string }) => [i.email, i.rol]),
    [['ana@example.com', 'edita']],
  );
  assert.ok(!pending.text.includes(tokenOf(invited.body.enlace)), 'the link is never listed again');

  const preview = await browserRequest(h.url, 'POST', '/api/invitaciones/consultar', {
    json: { token: tokenOf(invited.body.enlace) },
  });
  assert.equal(preview.status, 200, preview.text);
  assert.deepEqual(preview.body.espacio, { id: h.spaceId, nombre: h.spaceId });
  assert.equal(preview.body.cuenta_existente, false);

  const short = await browserRequest(h.url, 'POST', '/api/invitaciones/aceptar', {
    json: { token: tokenOf(invited.body.enlace), nombre: 'Ana', clave: 'corta' },
  });
  assert.equal(short.status, 422, 'a password under 10 characters is refused, and the invitation still works');
  const accepted = await browserRequest(h.url, 'POST', '/api/invitaciones/aceptar', {
    json: { token: tokenOf(invited.body.enlace), nombre: 'Ana', clave: MEMBER_PASSWORD },
  });
  assert.equal(accepted.status, 201, accepted.text);
  assert.equal(accepted.body.tipo, 'miembro');
  assert.equal(accepted.body.propietario.email, 'ana@example.com');
  assert.match(cookieFrom(accepted.setCookies), /^cerebro_sesion=crm_[0-9a-f]{16}\./);

  // The member signs in again with email and password, and sees only the space they belong to, with their role.
  const ana = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  assert.equal(ana.body.tipo, 'miembro');
  const spaces = await as(h.url, ana)('GET', '/companies');
  assert.equal(spaces.status, 200, spaces.text);
  assert.deepEqual(
    spaces.body.espacios.map((s: { id: string; rol: string }) => [s.id, s.rol]),
    [[h.spaceId, 'edita']],
  );
  const ownerSpaces = await as(h.url, owner)('GET', '/companies');
  assert.deepEqual(
    ownerSpaces.body.espacios.map((s: { rol: string }) => s.rol),
    ['propietario', 'propietario'],
  );
  const elsewhere = await as(h.url, ana)('GET', '/rag/otro/documents');
  assert.deepEqual(elsewhere.body, { detail: 'Sin acceso a este espacio.', codigo: 'space_not_reachable' });
  const members = await as(h.url, owner)('GET', `/companies/${h.spaceId}/miembros`);
  assert.deepEqual(
    members.body.miembros.map((m: { email: string; nombre: string; rol: string }) => [m.email, m.nombre, m.rol]),
    [['ana@example.com', 'Ana', 'edita']],
  );
});

test('an invitation works once; a used, withdrawn or expired one answers 410 with the catalogue body', async (t) => {
  let now = Date.parse('2026-11-27T10:00:00.000Z');
  const h = await startTestHost(t, { clock: { now: () => now } });
  const owner = await ownerSession(h);
  const invite = async (email: string) =>
    tokenOf(
      (await as(h.url, owner)('POST', `/companies/${h.spaceId}/miembros`, { email, rol: 'consulta' })).body.enlace,
    );
  const accept = (token: string, nombre = 'Bea') =>
    browserRequest(h.url, 'POST', '/api/invitaciones/aceptar', { json: { token, nombre, clave: MEMBER_PASSWORD } });
  const GONE = {
    detail: 'La invitación no es válida, ya se usó, se retiró o caducó. Pide otra a quien te invitó.',
    codigo: 'invitation_invalid',
  };

  const used = await invite('bea@example.com');
  assert.equal((await accept(used)).status, 201);
  const again = await accept(used, 'Otra persona');
  assert.equal(again.status, 410);
  assert.deepEqual(again.body, GONE);
  assert.deepEqual(again.setCookies, [], 'no session for a used link');

  const withdrawn = await invite('carla@example.com');
  const id = withdrawn.split('.')[0]!;
  assert.equal((await as(h.url, owner)('DELETE', `/companies/${h.spaceId}/invitaciones/${id}`)).status, 204);
  assert.deepEqual((await accept(withdrawn)).body, GONE);
  assert.equal((await as(h.url, owner)('DELETE', `/companies/${h.spaceId}/invitaciones/${id}`)).status, 404);

  const late = await invite('dani@example.com');
  now += 7 * 86_400_000;
  const expired = await accept(late);
  assert.equal(expired.status, 410);
  assert.deepEqual(expired.body, GONE);
  const preview = await browserRequest(h.url, 'POST', '/api/invitaciones/consultar', { json: { token: late } });
  assert.deepEqual(preview.body, GONE);
  const forged = await accept(`${late.split('.')[0]}.${'A'.repeat(43)}`);
  assert.deepEqual(forged.body, GONE, 'a right id with a wrong secret is no invitation');
  const garbage = await accept('no-es-un-token');
  assert.deepEqual(garbage.body, GONE);
});

test('each role: what it may do, and the 403 of what it may not; keys never manage members', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const consulta = await member(h, owner, 'consulta@example.com', 'consulta');
  const edita = await member(h, owner, 'edita@example.com', 'edita');
  const administra = await member(h, owner, 'administra@example.com', 'administra');
  const s = h.spaceId;

  // consulta: reads and asks (search), changes nothing.
  const c = as(h.url, consulta);
  assert.equal((await c('GET', `/rag/${s}/documents`)).status, 200);
  assert.equal((await c('GET', `/rag/${s}/config`)).status, 200);
  assert.equal((await c('POST', `/rag/${s}/buscar`, { pregunta: '¿Qué horario tenéis?' })).status, 200);
  const cRefused = await c('PATCH', `/rag/${s}/config`, { longitud: 'corta' });
  assert.equal(cRefused.status, 403);
  assert.deepEqual(cRefused.body, ROLE_REFUSED('consulta'));
  assert.deepEqual((await c('DELETE', `/rag/${s}/clear_cache`)).body, ROLE_REFUSED('consulta'));

  // edita: documents and settings of the answers, not the API's, members, webhooks or the activity log.
  const e = as(h.url, edita);
  assert.equal((await e('PATCH', `/rag/${s}/config`, { longitud: 'corta' })).status, 200);
  assert.equal((await e('DELETE', `/rag/${s}/clear_cache`)).status, 200);
  for (const [method, path, body] of [
    ['PATCH', `/companies/${s}/api-config`, { limite_por_minuto: 30 }],
    ['GET', `/companies/${s}/miembros`, undefined],
    ['POST', `/companies/${s}/miembros`, { email: 'x@example.com', rol: 'consulta' }],
    ['POST', `/companies/${s}/webhooks`, { url: 'https://example.com/gancho', eventos: ['documento.indexado'] }],
    ['GET', `/companies/${s}/auditoria`, undefined],
  ] as const) {
    const refused = await e(method, path, body);
    assert.equal(refused.status, 403, `${method} ${path}: ${refused.text}`);
    assert.deepEqual(refused.body, ROLE_REFUSED('edita'), `${method} ${path}`);
  }

  // administra: everything of the space, members included.
  const a = as(h.url, administra);
  assert.equal((await a('PATCH', `/companies/${s}/api-config`, { limite_por_minuto: 30 })).status, 200);
  assert.equal((await a('GET', `/companies/${s}/miembros`)).body.miembros.length, 3);
  assert.equal((await a('POST', `/companies/${s}/miembros`, { email: 'nueva@example.com', rol: 'edita' })).status, 201);
  assert.equal((await a('GET', `/companies/${s}/auditoria`)).status, 200);

  // Owner-level routes stay the owner's: the account's activity (keys: below; a member's own profile and sessions
  // are theirs: members-profile.test.ts).
  for (const session of [consulta, edita, administra]) {
    const refused = await as(h.url, session)('GET', '/auditoria');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.codigo, 'member_not_allowed');
  }
  assert.equal((await a('DELETE', '/sesion')).status, 204, 'a member signs out like an owner');

  // A key, even a write key of the owner, never manages members (people are managed from Studio).
  const byKey = await h.client.get(`/companies/${s}/miembros`);
  assert.equal(byKey.status, 403);
  assert.equal(byKey.body.codigo, 'console_only');
  // The owner keeps every right.
  assert.equal((await as(h.url, owner)('GET', `/companies/${s}/auditoria`)).status, 200);
});

test('effective permission is the stricter of the role and the space: an owner read-only leaves `edita` reading', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const edita = await member(h, owner, 'edita@example.com', 'edita');
  await h.admin.setOwnerReadOnlyOnSpace(h.spaceId, true);
  const refused = await as(h.url, edita)('PATCH', `/rag/${h.spaceId}/config`, { longitud: 'corta' });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.codigo, 'read_only');
  assert.equal((await as(h.url, edita)('GET', `/rag/${h.spaceId}/config`)).status, 200);
  await h.admin.setOwnerReadOnlyOnSpace(h.spaceId, false);
  await h.admin.setOwnerReadOnly(h.ownerId, true);
  const ownerReadOnly = await as(h.url, edita)('PATCH', `/rag/${h.spaceId}/config`, { longitud: 'corta' });
  assert.equal(ownerReadOnly.body.codigo, 'read_only');
});

test('removing a member ends their sessions at once; a role change applies at once and ends them too', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'edita');
  const second = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  const id = (await as(h.url, ana)('GET', '/sesion')).body.propietario.id as string;
  assert.match(id, /^mem_[0-9a-f]{16}$/);

  const changed = await as(h.url, owner)('PATCH', `/companies/${h.spaceId}/miembros/${id}`, { rol: 'consulta' });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.rol, 'consulta');
  assert.equal(changed.body.sesiones_cerradas, 2);
  assert.equal((await as(h.url, ana)('GET', '/companies')).status, 401, 'the very next request');
  assert.equal((await as(h.url, second)('GET', '/companies')).status, 401);
  const again = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  assert.deepEqual(
    (await as(h.url, again)('PATCH', `/rag/${h.spaceId}/config`, { longitud: 'corta' })).body,
    ROLE_REFUSED('consulta'),
  );

  const removed = await as(h.url, owner)('DELETE', `/companies/${h.spaceId}/miembros/${id}`);
  assert.equal(removed.status, 204, removed.text);
  const after = await as(h.url, again)('GET', `/rag/${h.spaceId}/documents`);
  assert.equal(after.status, 401, 'the session ended with the removal');
  const back = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  assert.deepEqual((await as(h.url, back)('GET', '/companies')).body.espacios, []);
  assert.equal((await as(h.url, back)('GET', `/rag/${h.spaceId}/documents`)).body.codigo, 'space_not_reachable');
  assert.equal((await as(h.url, owner)('DELETE', `/companies/${h.spaceId}/miembros/${id}`)).status, 404);
});

test('one member in the spaces of two owners: joining the second asks for their password, never replaces it', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  await member(h, owner, 'ana@example.com', 'administra');
  const other = await h.admin.createOwner({ name: 'Otra dueña', email: 'otra@example.com' });
  await h.admin.createSpace({ id: 'ajeno', ownerId: other.id });
  await studioAdmin(h).setOwnerPassword(other.id, 'otra clave larga y segura');
  const otherOwner = await signIn(h.url, 'otra@example.com', 'otra clave larga y segura');

  const invited = await as(h.url, otherOwner)('POST', '/companies/ajeno/miembros', {
    email: 'ana@example.com',
    rol: 'consulta',
  });
  const token = tokenOf(invited.body.enlace);
  const preview = await browserRequest(h.url, 'POST', '/api/invitaciones/consultar', { json: { token } });
  assert.equal(preview.body.cuenta_existente, true);
  const wrong = await browserRequest(h.url, 'POST', '/api/invitaciones/aceptar', {
    json: { token, clave: 'una contraseña nueva cualquiera' },
  });
  assert.equal(wrong.status, 403, 'whoever holds the link cannot take the existing member over');
  assert.equal(wrong.body.codigo, 'current_password_wrong');
  const joined = await browserRequest(h.url, 'POST', '/api/invitaciones/aceptar', {
    json: { token, clave: MEMBER_PASSWORD },
  });
  assert.equal(joined.status, 201, joined.text);

  const ana = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  const spaces = await as(h.url, ana)('GET', '/companies');
  assert.deepEqual(
    spaces.body.espacios.map((s: { id: string; rol: string }) => [s.id, s.rol]),
    [
      ['ajeno', 'consulta'],
      [h.spaceId, 'administra'],
    ],
  );
  // Administra in one space is nothing in the other.
  assert.deepEqual((await as(h.url, ana)('GET', '/companies/ajeno/miembros')).body, ROLE_REFUSED('consulta'));
  assert.equal((await as(h.url, ana)('GET', `/companies/${h.spaceId}/miembros`)).status, 200);
  // Neither owner sees the other's members, nor can invite an owner as a member.
  assert.equal((await as(h.url, owner)('GET', '/companies/ajeno/miembros')).body.codigo, 'space_not_reachable');
  const ownerAsMember = await as(h.url, owner)('POST', `/companies/${h.spaceId}/miembros`, {
    email: 'otra@example.com',
    rol: 'edita',
  });
  assert.equal(ownerAsMember.status, 409);
  assert.equal(ownerAsMember.body.codigo, 'member_email_is_owner');
  const twice = await as(h.url, owner)('POST', `/companies/${h.spaceId}/miembros`, {
    email: 'ana@example.com',
    rol: 'edita',
  });
  assert.equal(twice.body.codigo, 'member_exists');
});

test("an owner never takes a member's email: one email, one person (sign-in would lock one of them out)", async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  await member(h, owner, 'Ana@Example.com', 'edita');
  const TAKEN = {
    detail: 'Ese email ya lo usa un miembro de algún espacio: cada persona entra con el suyo.',
    codigo: 'email_taken',
  };
  // In the owner's own profile (any letter case: emails are compared normalised).
  const mine = await as(h.url, owner)('PATCH', '/perfil', {
    email: ' ANA@example.com',
    clave_actual: OWNER_PASSWORD,
  });
  assert.equal(mine.status, 409);
  assert.deepEqual(mine.body, TAKEN);
  assert.equal((await as(h.url, owner)('GET', '/perfil')).body.email, OWNER_EMAIL, 'nothing stored');
  // By the operator: setting an owner's email, or creating an owner with it.
  await assert.rejects(studioAdmin(h).setOwnerEmail(h.ownerId, 'ana@example.com'), { code: 'email_taken' });
  await assert.rejects(h.admin.createOwner({ name: 'Otra', email: 'ana@example.com' }), { code: 'email_taken' });
  // The member still signs in as themself.
  const ana = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  assert.equal((await as(h.url, ana)('GET', '/perfil')).body.tipo, 'miembro');
});

test('every member change is in the audit log: who, what, and the role before and after', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'edita');
  const id = (await as(h.url, ana)('GET', '/sesion')).body.propietario.id as string;
  await as(h.url, owner)('PATCH', `/companies/${h.spaceId}/miembros/${id}`, { rol: 'administra' });
  const again = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  // A change made by the member is theirs in the log.
  await as(h.url, again)('PATCH', `/rag/${h.spaceId}/config`, { longitud: 'corta' });
  await as(h.url, owner)('DELETE', `/companies/${h.spaceId}/miembros/${id}`);

  // Entries are written after each answer and may land in any order: wait for every one the test reads.
  const actions = [
    'miembro.invitado',
    'miembro.invitacion_aceptada',
    'miembro.rol_cambiado',
    'configuracion.modificada',
    'miembro.eliminado',
  ];
  let events: AuditEventView[] = [];
  for (let i = 0; i < 200; i++) {
    events = (await as(h.url, owner)('GET', `/companies/${h.spaceId}/auditoria?limite=50`)).body.eventos;
    if (actions.every((a) => events.some((e) => e.accion === a))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const byAction = (action: string) => {
    const found = events.find((e) => e.accion === action);
    assert.ok(found, `no ${action} event`);
    return found;
  };
  const invited = byAction('miembro.invitado');
  assert.equal(invited.actor.tipo, 'persona');
  assert.equal(invited.actor.id, h.ownerId);
  assert.deepEqual(invited.detalles, { email: 'ana@example.com', rol: 'edita' });
  assert.equal(invited.objetivo?.tipo, 'invitacion');
  assert.ok(!JSON.stringify(events).includes('/studio/invitacion?token='), 'never the link');
  const accepted = byAction('miembro.invitacion_aceptada');
  assert.deepEqual(accepted.actor, { tipo: 'persona', id, email: 'ana@example.com', nombre: null });
  assert.deepEqual(accepted.detalles, { rol: 'edita' });
  const changed = byAction('miembro.rol_cambiado');
  assert.equal(changed.antes?.rol, 'edita');
  assert.equal(changed.despues?.rol, 'administra');
  assert.deepEqual(changed.objetivo, { tipo: 'miembro', id });
  const byMember = byAction('configuracion.modificada');
  assert.equal(byMember.actor.id, id, 'a member’s own change names the member');
  assert.equal(byMember.propietario, h.ownerId);
  const removed = byAction('miembro.eliminado');
  assert.equal(removed.antes?.email, 'ana@example.com');
  assert.equal(removed.despues, null);
});

test('the member routes answer what the OpenAPI document declares', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const contract = new ResponseContract(doc);
  const s = h.spaceId;
  const check = (method: string, template: string, res: BrowserResponse) => {
    assert.ok(res.status < 300, `${method} ${template}: ${res.status} ${res.text.slice(0, 200)}`);
    contract.check(method, template, res as never);
    return res.body;
  };
  const o = as(h.url, owner);
  const invited = check(
    'POST',
    '/companies/{espacio}/miembros',
    await o('POST', `/companies/${s}/miembros`, { email: 'ana@example.com', rol: 'edita' }),
  );
  check('GET', '/companies/{espacio}/invitaciones', await o('GET', `/companies/${s}/invitaciones`));
  const token = tokenOf(invited.enlace);
  check(
    'POST',
    '/invitaciones/consultar',
    await browserRequest(h.url, 'POST', '/api/invitaciones/consultar', { json: { token } }),
  );
  const accepted = await browserRequest(h.url, 'POST', '/api/invitaciones/aceptar', {
    json: { token, nombre: 'Ana', clave: MEMBER_PASSWORD },
  });
  check('POST', '/invitaciones/aceptar', accepted);
  const id = accepted.body.propietario.id as string;
  check('GET', '/companies/{espacio}/miembros', await o('GET', `/companies/${s}/miembros`));
  check('GET', '/companies/{espacio}/miembros/{miembro}', await o('GET', `/companies/${s}/miembros/${id}`));
  check(
    'PATCH',
    '/companies/{espacio}/miembros/{miembro}',
    await o('PATCH', `/companies/${s}/miembros/${id}`, { rol: 'consulta' }),
  );
  check('GET', '/companies', await o('GET', '/companies'));
  check('GET', '/sesion', await o('GET', '/sesion'));
  const second = tokenOf(
    (await o('POST', `/companies/${s}/miembros`, { email: 'bea@example.com', rol: 'edita' })).body.enlace,
  );
  check(
    'DELETE',
    '/companies/{espacio}/invitaciones/{invitacion}',
    await o('DELETE', `/companies/${s}/invitaciones/${second.split('.')[0]}`),
  );
  check('DELETE', '/companies/{espacio}/miembros/{miembro}', await o('DELETE', `/companies/${s}/miembros/${id}`));
});

test('keys stay the owner’s, managed by the owner or an `administra` member within the spaces they administer', async (t) => {
  const h = await startTestHost(t);
  await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api'] });
  const owner = await ownerSession(h);
  const admin = as(h.url, await member(h, owner, 'admin@example.com', 'administra'));
  const editor = as(h.url, await member(h, owner, 'edita@example.com', 'edita'));
  const s = h.spaceId;

  for (const [method, path] of [
    ['GET', '/tokens'],
    ['POST', '/tokens'],
  ] as const) {
    const refused = await editor(method, path, method === 'POST' ? { nombre: 'k', espacios: [s] } : undefined);
    assert.equal(refused.status, 403, `${method} ${path}`);
    assert.equal(refused.body.codigo, 'role_insufficient');
  }
  // Never a key reaching every space of the owner, nor one reaching a space the member does not administer.
  for (const espacios of [[], ['otro'], [s, 'otro']]) {
    const refused = await admin('POST', '/tokens', { nombre: 'amplia', espacios });
    assert.equal(refused.status, 403, JSON.stringify(espacios));
    assert.equal(refused.body.codigo, 'key_scope_exceeded');
  }
  const created = await admin('POST', '/tokens', { nombre: 'widget', espacios: [s], permiso: 'lee' });
  assert.equal(created.status, 201, created.text);
  const widget = created.body.token as { id: string; token: string; espacios: string[] };
  assert.deepEqual(widget.espacios, [s]);
  const used = await fetch(`${h.url}/api/rag/${s}/documents`, { headers: { authorization: `Bearer ${widget.token}` } });
  assert.equal(used.status, 200, 'the key is the owner’s and works on the API');

  const ownerKey = await as(h.url, owner)('POST', '/tokens', { nombre: 'de otro espacio', espacios: ['otro'] });
  const listed = (await admin('GET', '/tokens')).body.tokens as { id: string; espacios: string[] }[];
  assert.ok(listed.some((k) => k.id === widget.id));
  assert.ok(
    listed.every((k) => k.espacios.length > 0 && k.espacios.every((id) => id === s)),
    'only keys limited to spaces the member administers',
  );
  const outOfReach = await admin('DELETE', `/tokens/${ownerKey.body.token.id}`);
  assert.equal(outOfReach.status, 404);
  assert.equal(outOfReach.body.codigo, 'key_not_found');
  assert.equal((await admin('PATCH', `/tokens/${widget.id}`, { limite_por_minuto: 10 })).status, 200);
  assert.equal((await admin('DELETE', `/tokens/${widget.id}`)).status, 200);

  // Each write's event is stored before its answer: all three are there now.
  const expected = ['clave.creada', 'clave.limites_modificados', 'clave.revocada'];
  const events: AuditEventView[] = (await as(h.url, owner)('GET', '/auditoria?accion=clave.')).body.eventos;
  const byMember = events.filter((e) => e.actor.email === 'admin@example.com').map((e) => e.accion);
  assert.deepEqual(byMember.sort(), expected);
});

test('a space the operator moves to another owner leaves its members behind', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'administra');
  const other = await h.admin.createOwner({ name: 'Nueva dueña' });
  await h.admin.assignSpace(h.spaceId, other.id);
  const refused = await as(h.url, ana)('GET', `/rag/${h.spaceId}/documents`);
  assert.equal(refused.body.codigo, 'space_not_reachable', 'the new owner did not invite her');
  assert.deepEqual((await as(h.url, ana)('GET', '/companies')).body.espacios, []);
  await h.admin.assignSpace(h.spaceId, h.ownerId);
  assert.equal((await as(h.url, ana)('GET', `/rag/${h.spaceId}/documents`)).status, 200, 'back with its owner');
});

// A member's own profile and sessions against the real host: `GET`/`PATCH /api/perfil` and `GET`/`DELETE
// /api/sesiones` answer a member's session as an owner's (name and password; the email stays the invited one), the
// current password is checked against the sign-in throttle, a member reaches only their own sessions, and their
// changes are audited with them as the actor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERROR_CATALOGUE } from '@cerebro/sdk';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { MEMBER_PASSWORD, as, member, ownerSession } from './support/members.js';
import { ResponseContract } from './support/response-contract.js';
import { browserRequest, OWNER_EMAIL, signIn, type SignedIn } from './support/studio.js';

const NEW_PASSWORD = 'la clave nueva de ana';

/** The id of the person a session is of (`mem_…` for a member). */
const idOf = async (h: TestHost, session: SignedIn): Promise<string> =>
  (await as(h.url, session)('GET', '/perfil')).body.id;

test('a member reads and changes their own name and password; the current one is checked; the email stays', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'edita');
  const elsewhere = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  const patch = (json: unknown) => as(h.url, ana)('PATCH', '/perfil', json);

  const profile = await as(h.url, ana)('GET', '/perfil');
  assert.equal(profile.status, 200, profile.text);
  const id = profile.body.id as string;
  assert.match(id, /^mem_[0-9a-f]{16}$/);
  assert.deepEqual(profile.body, {
    id,
    nombre: 'Persona edita',
    email: 'ana@example.com',
    tiene_clave: true,
    tipo: 'miembro',
  });
  assert.equal((await as(h.url, owner)('GET', '/perfil')).body.tipo, 'propietario', 'fields are added for owners');

  const renamed = await patch({ nombre: '  Ana Pérez ' });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual(renamed.body, { ...profile.body, nombre: 'Ana Pérez', sesiones_cerradas: 0 });
  assert.equal((await as(h.url, ana)('GET', '/sesion')).body.propietario.nombre, 'Ana Pérez');
  const listed = await as(h.url, owner)('GET', `/companies/${h.spaceId}/miembros/${id}`);
  assert.equal(listed.body.nombre, 'Ana Pérez', 'the owner sees the new name');
  assert.equal((await patch({ nombre: '   ' })).status, 422);

  // The password: the current one is needed and checked; a short new one is refused before anything.
  const missing = await patch({ clave_nueva: NEW_PASSWORD });
  assert.equal(missing.status, 422);
  assert.deepEqual(missing.body.detail[0].loc, ['body', 'clave_actual']);
  const wrong = await patch({ clave_actual: 'no es la clave de ana', clave_nueva: NEW_PASSWORD });
  assert.equal(wrong.status, 403);
  assert.deepEqual(wrong.body, {
    detail: ERROR_CATALOGUE.current_password_wrong.detail,
    codigo: 'current_password_wrong',
  });
  assert.equal((await patch({ clave_actual: MEMBER_PASSWORD, clave_nueva: 'corta' })).status, 422);

  // The email: the one they were invited with stays; sending it back unchanged is no change.
  const moved = await patch({ email: 'ana@otra.example', nombre: 'No se guarda', clave_actual: MEMBER_PASSWORD });
  assert.equal(moved.status, 403);
  assert.deepEqual(moved.body, {
    detail: ERROR_CATALOGUE.member_email_fixed.detail,
    codigo: 'member_email_fixed',
  });
  assert.equal((await as(h.url, ana)('GET', '/perfil')).body.nombre, 'Ana Pérez', 'a refused change stores nothing');
  const same = await patch({ email: ' ANA@example.com ', nombre: 'Ana P.' });
  assert.equal(same.status, 200, same.text);
  assert.equal(same.body.email, 'ana@example.com');

  const changed = await patch({ clave_actual: MEMBER_PASSWORD, clave_nueva: NEW_PASSWORD });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.sesiones_cerradas, 1);
  assert.equal((await as(h.url, elsewhere)('GET', '/companies')).status, 401, 'the other session ended at once');
  assert.equal((await as(h.url, ana)('GET', '/companies')).status, 200, 'this one goes on');
  const old = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: 'ana@example.com', clave: MEMBER_PASSWORD },
  });
  assert.equal(old.status, 401);
  const back = await signIn(h.url, 'ana@example.com', NEW_PASSWORD);
  assert.equal(back.body.tipo, 'miembro');
  assert.equal((await as(h.url, owner)('GET', '/perfil')).body.email, OWNER_EMAIL, 'the owner is untouched');
});

test('a member’s wrong current passwords count against the sign-in throttle: then even the right one waits', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'consulta');
  for (let i = 0; i < 5; i++) {
    const wrong = await as(h.url, ana)('PATCH', '/perfil', {
      clave_actual: `mala ${i} clave`,
      clave_nueva: NEW_PASSWORD,
    });
    assert.equal(wrong.status, 403, `attempt ${i + 1}`);
  }
  const throttled = await as(h.url, ana)('PATCH', '/perfil', {
    clave_actual: MEMBER_PASSWORD,
    clave_nueva: NEW_PASSWORD,
  });
  assert.equal(throttled.status, 429);
  assert.equal(throttled.body.codigo, 'sign_in_throttled');
  assert.ok(Number(throttled.headers.get('retry-after')) > 0);
  assert.equal((await as(h.url, ana)('PATCH', '/perfil', { nombre: 'Ana' })).status, 200, 'a name needs no password');
});

test('a member lists and closes their own sessions, never another person’s', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'administra');
  const ana2 = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  const bea = await member(h, owner, 'bea@example.com', 'edita');
  const sessionsOf = async (session: SignedIn) => {
    const res = await as(h.url, session)('GET', '/sesiones');
    assert.equal(res.status, 200, res.text);
    return res.body.sesiones as { id: string; actual: boolean; origen: string }[];
  };

  const mine = await sessionsOf(ana);
  assert.equal(mine.length, 2);
  assert.deepEqual(
    mine.map((s) => s.actual),
    [false, true],
    'newest first: the second sign-in, then this one (the acceptance)',
  );
  assert.ok(mine.every((s) => s.origen === 'clave'));
  const [beaSession] = await sessionsOf(bea);
  const ownerSessions = await sessionsOf(owner);
  assert.equal(ownerSessions.length, 1, 'the owner’s list is the owner’s only');
  const mineIds = new Set(mine.map((s) => s.id));
  assert.ok(!mineIds.has(beaSession!.id) && !mineIds.has(ownerSessions[0]!.id));

  // Another member's and the owner's sessions are not found from a member's, nor the member's from the owner's.
  for (const [by, id] of [
    [ana, beaSession!.id],
    [ana, ownerSessions[0]!.id],
    [owner, mine[0]!.id],
  ] as const) {
    const refused = await as(h.url, by)('DELETE', `/sesiones/${id}`);
    assert.equal(refused.status, 404, refused.text);
    assert.equal(refused.body.codigo, 'session_not_found');
  }
  assert.equal((await as(h.url, bea)('GET', '/companies')).status, 200, 'still open');
  assert.equal((await as(h.url, owner)('GET', '/companies')).status, 200);

  const noCsrf = await browserRequest(h.url, 'DELETE', `/api/sesiones/${mine[0]!.id}`, { cookie: ana.cookie });
  assert.equal(noCsrf.status, 403, 'CSRF applies');
  assert.equal((await as(h.url, ana)('DELETE', `/sesiones/${mine[0]!.id}`)).status, 204);
  assert.equal((await as(h.url, ana2)('GET', '/companies')).status, 401, 'ended from the next request');
  assert.equal((await as(h.url, ana)('DELETE', `/sesiones/${mine[0]!.id}`)).status, 404, 'already closed');
  assert.deepEqual(
    (await sessionsOf(ana)).map((s) => s.id),
    [mine[1]!.id],
  );
});

/** An audit event as `GET /admin/auditoria` lists it (the fields these tests read). */
interface AuditEventView {
  accion: string;
  actor: { tipo: string; id: string; email: string | null; nombre: string | null };
  objetivo: { tipo: string; id: string } | null;
  espacio: string | null;
  propietario: string | null;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
}

/** The events of one actor as the operator reads them, once `count` are written (each after its answer). */
async function operatorEvents(h: TestHost, token: string, actor: string, count: number): Promise<AuditEventView[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const res = await h.client.get(`/admin/auditoria?actor=${actor}`, { key: token });
    assert.equal(res.status, 200, res.text);
    if (res.body.eventos.length >= count || Date.now() > until) return res.body.eventos;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a member’s own changes are audited with them as the actor, like their sign-ins: for the operator, in no owner’s log', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'administra');
  const other = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  const id = await idOf(h, ana);
  const otherId = (await as(h.url, other)('GET', '/sesiones')).body.sesiones.find((s: { actual: boolean }) => s.actual)
    .id as string;
  assert.equal((await as(h.url, ana)('DELETE', `/sesiones/${otherId}`)).status, 204);
  assert.equal((await as(h.url, ana)('PATCH', '/perfil', { nombre: 'Ana Pérez' })).status, 200);
  const changed = await as(h.url, ana)('PATCH', '/perfil', {
    clave_actual: MEMBER_PASSWORD,
    clave_nueva: NEW_PASSWORD,
  });
  assert.equal(changed.status, 200, changed.text);

  const operator = await h.admin.issueOperatorCredential('auditor');
  const events = await operatorEvents(h, operator.token, id, 5);
  const own = events.filter((e) =>
    ['perfil.modificado', 'perfil.clave_cambiada', 'sesion.revocada'].includes(e.accion),
  );
  assert.deepEqual(
    own.map((e) => e.accion),
    ['perfil.clave_cambiada', 'perfil.modificado', 'sesion.revocada'],
  );
  for (const e of own) {
    assert.deepEqual(e.actor, { tipo: 'persona', id, email: 'ana@example.com', nombre: null });
    assert.equal(e.propietario, null, 'a member may work for several owners: no owner’s in particular');
    assert.equal(e.espacio, null);
  }
  const [password, renamed, revoked] = own;
  assert.equal(renamed!.antes?.nombre, 'Persona administra');
  assert.equal(renamed!.despues?.nombre, 'Ana Pérez');
  assert.equal(renamed!.despues?.tipo, 'miembro');
  assert.deepEqual(revoked!.objetivo, { tipo: 'sesion', id: otherId });
  assert.ok(!JSON.stringify(password).includes(NEW_PASSWORD), 'never a password');
  assert.ok(!JSON.stringify(password).includes(MEMBER_PASSWORD));

  // The owner's account log holds the owner's own profile events, not the member's.
  const ownerLog = await as(h.url, owner)('GET', '/auditoria?accion=perfil.');
  assert.equal(ownerLog.status, 200, ownerLog.text);
  assert.deepEqual(ownerLog.body.eventos, []);
});

test('a member’s profile and session routes answer what the OpenAPI document declares', async (t) => {
  const h = await startTestHost(t);
  const owner = await ownerSession(h);
  const ana = await member(h, owner, 'ana@example.com', 'consulta');
  const other = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  for (const [path, method] of [
    ['/perfil', 'get'],
    ['/perfil', 'patch'],
    ['/sesiones', 'get'],
    ['/sesiones/{id}', 'delete'],
  ] as const)
    assert.equal(doc.paths[path][method]['x-cerebro-miembros'], true, `${method} ${path} is declared open to members`);
  const contract = new ResponseContract(doc);
  const check = (method: string, template: string, res: Awaited<ReturnType<ReturnType<typeof as>>>) => {
    contract.check(method, template, res as never);
    return res.body;
  };
  const a = as(h.url, ana);
  check('GET', '/perfil', await a('GET', '/perfil'));
  check('GET', '/perfil', await as(h.url, owner)('GET', '/perfil'));
  check('PATCH', '/perfil', await a('PATCH', '/perfil', { nombre: 'Ana' }));
  check('PATCH', '/perfil', await a('PATCH', '/perfil', { email: 'ana@otra.example' }));
  check('PATCH', '/perfil', await a('PATCH', '/perfil', { clave_actual: 'mala clave', clave_nueva: NEW_PASSWORD }));
  const listed = check('GET', '/sesiones', await a('GET', '/sesiones'));
  const otherId = listed.sesiones.find((s: { actual: boolean }) => !s.actual).id as string;
  check('DELETE', '/sesiones/{id}', await a('DELETE', `/sesiones/${otherId}`));
  check('DELETE', '/sesiones/{id}', await a('DELETE', `/sesiones/${otherId}`));
  check('PATCH', '/perfil', await a('PATCH', '/perfil', { clave_actual: MEMBER_PASSWORD, clave_nueva: NEW_PASSWORD }));
  assert.equal((await as(h.url, other)('GET', '/sesion')).status, 401);
  assert.deepEqual([...contract.checked].sort(), [
    'DELETE /sesiones/{id} 204',
    'DELETE /sesiones/{id} 404',
    'GET /perfil 200',
    'GET /sesiones 200',
    'PATCH /perfil 200',
    'PATCH /perfil 403',
  ]);
});

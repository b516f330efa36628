// Studio sign-in, cookie sessions and CSRF against the real host (issue #14, back end).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestHost } from '@cerebro/sdk/testing';
import { sqliteOnly } from './support/backend.js';
import {
  OWNER_EMAIL,
  OWNER_PASSWORD,
  browserRequest,
  cookieFrom,
  signIn,
  studioAdmin,
  withPassword,
} from './support/studio.js';

test('sign in sets an HttpOnly, SameSite=Strict session cookie for the whole site; sign out ends it and clears the cookie', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const res = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: ' Duena@Example.COM ', clave: OWNER_PASSWORD },
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.body.propietario, {
    id: h.ownerId,
    nombre: 'Propietario de pruebas',
    email: OWNER_EMAIL,
    tiene_clave: true,
  });
  assert.match(res.body.csrf, /^[A-Za-z0-9_-]{43}$/);
  assert.ok(Date.parse(res.body.expira) > Date.now());
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const line = res.setCookies.find((c) => c.startsWith('cerebro_sesion='))!;
  const attributes = line.split(';').map((a) => a.trim().toLowerCase());
  assert.match(line, /^cerebro_sesion=crs_[0-9a-f]{16}\.[A-Za-z0-9_-]{43};/);
  assert.ok(attributes.includes('httponly'), line);
  assert.ok(attributes.includes('samesite=strict'), line);
  assert.ok(attributes.includes('path=/'), line);
  assert.ok(!attributes.includes('secure'), 'plain HTTP without a trusted TLS proxy: no Secure flag');
  const cookie = cookieFrom(res.setCookies);

  const current = await browserRequest(h.url, 'GET', '/api/sesion', { cookie });
  assert.equal(current.status, 200, current.text);
  assert.equal(current.body.csrf, res.body.csrf, 'the same token for the whole session');
  const spaces = await browserRequest(h.url, 'GET', '/api/companies', { cookie });
  assert.equal(spaces.status, 200, 'the cookie is a console credential on every API route');
  assert.deepEqual(
    spaces.body.espacios.map((s: { id: string }) => s.id),
    [h.spaceId],
  );

  const out = await browserRequest(h.url, 'DELETE', '/api/sesion', { cookie, csrf: res.body.csrf });
  assert.equal(out.status, 204, out.text);
  assert.match(out.setCookies.join('\n'), /cerebro_sesion=;.*Max-Age=0/i);
  const after = await browserRequest(h.url, 'GET', '/api/sesion', { cookie });
  assert.equal(after.status, 401);
  assert.match(
    after.setCookies.join('\n'),
    /cerebro_sesion=;.*Max-Age=0/i,
    'a dead session cookie is removed from the browser',
  );
});

test('a wrong email and a wrong password get the same 401; a key or operator credential in the cookie is refused', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const unknown = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: 'nadie@example.com', clave: OWNER_PASSWORD },
  });
  const wrong = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: OWNER_EMAIL, clave: 'otra clave cualquiera' },
  });
  assert.equal(unknown.status, 401);
  assert.equal(wrong.status, 401);
  assert.deepEqual(unknown.body, wrong.body);
  assert.deepEqual(wrong.body, { detail: 'Email o contraseña incorrectos.', codigo: 'invalid_credentials' });
  assert.deepEqual(unknown.setCookies, []);

  const asKey = await browserRequest(h.url, 'GET', '/api/companies', { cookie: `cerebro_sesion=${h.writeKey}` });
  assert.equal(asKey.status, 401, 'only console credentials work as the cookie');
  const garbage = await browserRequest(h.url, 'GET', '/api/companies', {
    cookie: 'cerebro_sesion=crs_0123456789abcdef.xxx',
  });
  assert.equal(garbage.status, 401);
  const missingFields = await browserRequest(h.url, 'POST', '/api/sesion', { json: { email: OWNER_EMAIL } });
  assert.equal(missingFields.status, 422);
  // Login CSRF: a cross-site HTML form can only send form or text bodies, which sign-in refuses.
  for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
    const res = await fetch(`${h.url}/api/sesion`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: `email=${OWNER_EMAIL}&clave=${OWNER_PASSWORD}`,
    });
    assert.equal(res.status, 415, type);
    assert.deepEqual(res.headers.getSetCookie(), []);
  }
});

test('an owner without a password, or a deleted owner, cannot sign in', async (t) => {
  const h = await startTestHost(t);
  const other = await h.admin.createOwner({ name: 'Sin clave', email: 'sinclave@example.com' });
  const res = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: 'sinclave@example.com', clave: OWNER_PASSWORD },
  });
  assert.equal(res.status, 401);
  await studioAdmin(h).setOwnerPassword(other.id, OWNER_PASSWORD);
  const ok = await signIn(h.url, 'sinclave@example.com');
  await h.admin.deleteOwner(other.id);
  assert.equal(
    (await browserRequest(h.url, 'GET', '/api/sesion', { cookie: ok.cookie })).status,
    401,
    "a deleted owner's session answers 401",
  );
  assert.equal(
    (
      await browserRequest(h.url, 'POST', '/api/sesion', {
        json: { email: 'sinclave@example.com', clave: OWNER_PASSWORD },
      })
    ).status,
    401,
  );
});

test("state-changing calls with the cookie need the session's X-CSRF-Token; Bearer calls do not", async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const s = await signIn(h.url);
  const create = (csrf?: string) =>
    browserRequest(h.url, 'POST', '/api/tokens', { cookie: s.cookie, csrf, json: { nombre: 'desde studio' } });

  const without = await create();
  assert.equal(without.status, 403);
  assert.deepEqual(without.body, { detail: 'Falta el token CSRF o no es válido.', codigo: 'csrf_invalid' });
  const other = await signIn(h.url);
  for (const bad of ['', 'x', other.csrf, s.csrf.slice(0, -1), `${s.csrf}x`]) {
    assert.equal((await create(bad)).status, 403, `token ${JSON.stringify(bad)} refused`);
  }
  const listed = await browserRequest(h.url, 'GET', '/api/tokens', { cookie: s.cookie });
  assert.equal(listed.body.tokens.length, 2, 'nothing was created by the refused calls');
  const ok = await create(s.csrf);
  assert.equal(ok.status, 201, ok.text);
  const patch = await browserRequest(h.url, 'PATCH', `/api/rag/${h.spaceId}/config`, { cookie: s.cookie, json: {} });
  assert.equal(patch.status, 403, 'PATCH too');
  const del = await browserRequest(h.url, 'DELETE', `/api/tokens/${ok.body.token.id}`, { cookie: s.cookie });
  assert.equal(del.status, 403, 'DELETE too');

  // A Bearer credential (key or operator-issued session) is never sent by a browser on its own: no token needed.
  const bearer = await h.client.post('/tokens', { json: { nombre: 'desde un servidor' } });
  assert.equal(bearer.status, 201);
  const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
  assert.equal((await h.client.post('/tokens', { key: session, json: { nombre: 'sesion bearer' } })).status, 201);
  // With both, the Authorization header decides and the cookie is not looked at.
  const both = await browserRequest(h.url, 'POST', '/api/tokens', {
    cookie: s.cookie,
    json: { nombre: 'ambas' },
    headers: { authorization: `Bearer ${h.writeKey}` },
  });
  assert.equal(both.status, 201);
});

test('session fixation: a session cookie sent before sign-in is never kept, and a live one is ended', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const planted = await signIn(h.url);
  const fresh = await signIn(h.url, OWNER_EMAIL, OWNER_PASSWORD, { cookie: planted.cookie });
  assert.notEqual(fresh.cookie, planted.cookie, 'a new session id');
  assert.notEqual(fresh.csrf, planted.csrf);
  assert.equal(
    (await browserRequest(h.url, 'GET', '/api/sesion', { cookie: planted.cookie })).status,
    401,
    'the planted session no longer works',
  );
  assert.equal((await browserRequest(h.url, 'GET', '/api/sesion', { cookie: fresh.cookie })).status, 200);

  const made = `cerebro_sesion=crs_${'a'.repeat(16)}.${'b'.repeat(43)}`;
  const afterMade = await signIn(h.url, OWNER_EMAIL, OWNER_PASSWORD, { cookie: made });
  assert.notEqual(afterMade.cookie, made);
});

test('sign-in attempts are limited: 5 failures for one email in 15 minutes give 429 with Retry-After, even with the right password', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  for (let i = 0; i < 5; i++) {
    const res = await browserRequest(h.url, 'POST', '/api/sesion', {
      json: { email: OWNER_EMAIL, clave: `clave equivocada ${i}` },
    });
    assert.equal(res.status, 401);
  }
  const limited = await browserRequest(h.url, 'POST', '/api/sesion', {
    json: { email: OWNER_EMAIL.toUpperCase(), clave: OWNER_PASSWORD },
  });
  assert.equal(limited.status, 429, limited.text);
  assert.equal(limited.body.codigo, 'sign_in_throttled');
  const retry = Number(limited.headers.get('retry-after'));
  assert.ok(retry > 800 && retry <= 900, `Retry-After ${retry}`);
  assert.deepEqual(limited.setCookies, []);
});

test('per IP: 20 failures over many emails block that address too', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  for (let i = 0; i < 20; i++) {
    assert.equal(
      (
        await browserRequest(h.url, 'POST', '/api/sesion', {
          json: { email: `persona${i}@example.com`, clave: 'nada de nada' },
        })
      ).status,
      401,
    );
  }
  assert.equal(
    (await browserRequest(h.url, 'POST', '/api/sesion', { json: { email: OWNER_EMAIL, clave: OWNER_PASSWORD } }))
      .status,
    429,
  );
});

test('the Secure flag is set behind a trusted proxy that reached us over TLS, and only then', async (t) => {
  const trusted = await startTestHost(t, { env: { CEREBRO_TRUST_PROXY: 'loopback' } });
  await withPassword(trusted);
  const tls = await signIn(trusted.url, OWNER_EMAIL, OWNER_PASSWORD, { 'x-forwarded-proto': 'https' });
  assert.match(
    tls.setCookie,
    /^__Host-cerebro_sesion=crs_[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
  );
  const overTls = { 'x-forwarded-proto': 'https' };
  assert.equal(
    (await browserRequest(trusted.url, 'GET', '/api/sesion', { cookie: tls.cookie, headers: overTls })).status,
    200,
  );
  const planted = tls.cookie.replace('__Host-', '');
  assert.equal(
    (await browserRequest(trusted.url, 'GET', '/api/sesion', { cookie: planted, headers: overTls })).status,
    401,
    'over TLS a cookie without the __Host- prefix (which a sibling subdomain could set) is not read',
  );
  const plain = await signIn(trusted.url, OWNER_EMAIL, OWNER_PASSWORD, { 'x-forwarded-proto': 'http' });
  assert.doesNotMatch(plain.setCookie, /Secure/i);

  const untrusted = await startTestHost(t);
  await withPassword(untrusted);
  const spoofed = await signIn(untrusted.url, OWNER_EMAIL, OWNER_PASSWORD, { 'x-forwarded-proto': 'https' });
  assert.doesNotMatch(spoofed.setCookie, /Secure/i, 'a client cannot claim TLS itself');
});

test('a console session never reaches /api/admin, and a key cannot use the console-only routes', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const s = await signIn(h.url);
  const admin = await browserRequest(h.url, 'GET', '/api/admin/propietarios', { cookie: s.cookie });
  assert.equal(admin.status, 403);
  assert.equal(admin.body.codigo, 'admin_only');
  const adminWrite = await browserRequest(h.url, 'POST', '/api/admin/propietarios', {
    cookie: s.cookie,
    csrf: s.csrf,
    json: { nombre: 'x' },
  });
  assert.equal(adminWrite.status, 403);
  for (const [method, path] of [
    ['GET', '/api/sesion'],
    ['GET', '/api/sesiones'],
    ['GET', '/api/perfil'],
    ['PATCH', '/api/perfil'],
  ] as const) {
    const res = await h.client.request(
      method,
      path.replace('/api', ''),
      method === 'PATCH' ? { json: { nombre: 'x' } } : {},
    );
    assert.equal(res.status, 403, `${method} ${path} with a key`);
    assert.equal(res.body.codigo, 'console_only');
  }
});

test('API switched off and an IP list stop keys, not the console session', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const s = await signIn(h.url);
  const patched = await h.client.patch(`/companies/${h.spaceId}/api-config`, {
    json: { ips_permitidas: ['203.0.113.7'] },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal((await h.client.get(`/rag/${h.spaceId}/documents`)).status, 403, 'the key is outside the IP list');
  assert.equal(
    (await browserRequest(h.url, 'GET', `/api/rag/${h.spaceId}/documents`, { cookie: s.cookie })).status,
    200,
  );
  await h.admin.setApiEnabled(h.spaceId, false);
  const keyOff = await h.client.get(`/rag/${h.spaceId}/documents`);
  assert.equal(keyOff.status, 403);
  assert.equal(
    (await browserRequest(h.url, 'GET', `/api/rag/${h.spaceId}/documents`, { cookie: s.cookie })).status,
    200,
  );
  const write = await browserRequest(h.url, 'PATCH', `/api/companies/${h.spaceId}/api-config`, {
    cookie: s.cookie,
    csrf: s.csrf,
    json: { ips_permitidas: [] },
  });
  assert.equal(write.status, 200, 'the console can fix the settings that lock keys out');
});

test('sessions expire when idle and at their absolute end; each use pushes the idle expiry forward', async (t) => {
  let now = Date.now();
  const h = await startTestHost(t, {
    clock: { now: () => now },
    env: { CEREBRO_SESSION_IDLE_MINUTES: '30', CEREBRO_SESSION_MAX_DAYS: '1' },
  });
  await withPassword(h);
  const s = await signIn(h.url);
  assert.equal(Date.parse(s.body.expira), now + 30 * 60_000);
  now += 20 * 60_000;
  const used = await browserRequest(h.url, 'GET', '/api/sesion', { cookie: s.cookie });
  assert.equal(used.status, 200);
  assert.equal(Date.parse(used.body.expira), now + 30 * 60_000, 'pushed forward by the use');
  now += 29 * 60_000;
  assert.equal(
    (await browserRequest(h.url, 'GET', '/api/companies', { cookie: s.cookie })).status,
    200,
    'still inside the pushed idle window',
  );
  now += 31 * 60_000;
  const idle = await browserRequest(h.url, 'GET', '/api/companies', { cookie: s.cookie });
  assert.equal(idle.status, 401, 'idle for longer than 30 minutes');

  const busy = await signIn(h.url);
  for (let i = 0; i < 50; i++) {
    now += 29 * 60_000;
    const res = await browserRequest(h.url, 'GET', '/api/sesion', { cookie: busy.cookie });
    if (res.status !== 200) {
      assert.equal(res.status, 401);
      assert.ok(i >= 49 - 2, `ended after about a day of use (${i} half hours)`);
      return;
    }
  }
  assert.fail('a session in constant use must still end at its absolute expiry');
});

test('the owner lists their sessions and revokes one; the revoked one answers 401 from the next request', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const first = await signIn(h.url, OWNER_EMAIL, OWNER_PASSWORD, { 'user-agent': 'Navegador Uno' });
  const second = await signIn(h.url, OWNER_EMAIL, OWNER_PASSWORD, { 'user-agent': 'Navegador Dos' });
  const list = await browserRequest(h.url, 'GET', '/api/sesiones', { cookie: second.cookie });
  assert.equal(list.status, 200);
  assert.equal(list.body.sesiones.length, 2);
  const [newest, oldest] = list.body.sesiones;
  assert.equal(newest.agente, 'Navegador Dos');
  assert.equal(newest.actual, true);
  assert.equal(oldest.agente, 'Navegador Uno');
  assert.equal(oldest.actual, false);
  assert.equal(oldest.origen, 'clave');
  assert.ok(typeof oldest.ip === 'string' && oldest.ip.length > 0);
  assert.ok(!JSON.stringify(list.body).includes(first.cookie.split('.')[1]!), 'never a secret');

  assert.equal(
    (await browserRequest(h.url, 'DELETE', `/api/sesiones/${oldest.id}`, { cookie: second.cookie })).status,
    403,
    'CSRF applies',
  );
  const revoked = await browserRequest(h.url, 'DELETE', `/api/sesiones/${oldest.id}`, {
    cookie: second.cookie,
    csrf: second.csrf,
  });
  assert.equal(revoked.status, 204);
  assert.equal((await browserRequest(h.url, 'GET', '/api/companies', { cookie: first.cookie })).status, 401);
  assert.equal(
    (await browserRequest(h.url, 'DELETE', `/api/sesiones/${oldest.id}`, { cookie: second.cookie, csrf: second.csrf }))
      .status,
    404,
    'already closed',
  );

  // Another owner's session id is not found, not revoked.
  const stranger = await h.admin.createOwner({ name: 'Otra', email: 'otra@example.com' });
  await studioAdmin(h).setOwnerPassword(stranger.id, OWNER_PASSWORD);
  const theirs = await signIn(h.url, 'otra@example.com');
  const theirId =
    (await browserRequest(h.url, 'GET', '/api/sesion', { cookie: theirs.cookie })).body &&
    (await browserRequest(h.url, 'GET', '/api/sesiones', { cookie: theirs.cookie })).body.sesiones[0].id;
  assert.equal(
    (await browserRequest(h.url, 'DELETE', `/api/sesiones/${theirId}`, { cookie: second.cookie, csrf: second.csrf }))
      .status,
    404,
  );
  assert.equal((await browserRequest(h.url, 'GET', '/api/sesion', { cookie: theirs.cookie })).status, 200);
});

test('the profile: name change; email and password changes need the current password; a new password ends the other sessions', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const here = await signIn(h.url);
  const elsewhere = await signIn(h.url);
  const patch = (json: unknown) =>
    browserRequest(h.url, 'PATCH', '/api/perfil', { cookie: here.cookie, csrf: here.csrf, json });

  const renamed = await patch({ nombre: '  Ana Pérez ' });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.nombre, 'Ana Pérez');
  assert.equal((await patch({ email: 'nueva@example.com' })).status, 422, 'current password missing');
  const wrong = await patch({ email: 'nueva@example.com', clave_actual: 'no es esta clave' });
  assert.equal(wrong.status, 403);
  assert.equal(wrong.body.codigo, 'current_password_wrong');
  assert.equal((await patch({ clave_nueva: 'corta', clave_actual: OWNER_PASSWORD })).status, 422);
  await h.admin.createOwner({ name: 'Ocupa', email: 'ocupado@example.com' });
  assert.equal(
    (await patch({ email: 'OCUPADO@example.com', clave_actual: OWNER_PASSWORD, nombre: 'No se guarda' })).status,
    409,
  );
  assert.equal(
    (await browserRequest(h.url, 'GET', '/api/perfil', { cookie: here.cookie })).body.nombre,
    'Ana Pérez',
    'a refused change stores nothing',
  );

  const changed = await patch({
    email: 'Nueva@Example.com',
    clave_actual: OWNER_PASSWORD,
    clave_nueva: 'otra clave más larga',
  });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.email, 'nueva@example.com');
  assert.equal(changed.body.sesiones_cerradas, 1);
  assert.equal(
    (await browserRequest(h.url, 'GET', '/api/sesion', { cookie: elsewhere.cookie })).status,
    401,
    'the other session ended',
  );
  assert.equal(
    (await browserRequest(h.url, 'GET', '/api/sesion', { cookie: here.cookie })).status,
    200,
    'this one goes on',
  );
  assert.equal(
    (await browserRequest(h.url, 'POST', '/api/sesion', { json: { email: OWNER_EMAIL, clave: OWNER_PASSWORD } }))
      .status,
    401,
  );
  await signIn(h.url, 'nueva@example.com', 'otra clave más larga');
  const profile = await browserRequest(h.url, 'GET', '/api/perfil', { cookie: here.cookie });
  assert.deepEqual(profile.body, {
    id: h.ownerId,
    nombre: 'Ana Pérez',
    email: 'nueva@example.com',
    tiene_clave: true,
    tipo: 'propietario',
  });
});

test("the operator's password reset ends every session of the owner", async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const s = await signIn(h.url);
  const reset = await studioAdmin(h).setOwnerPassword(h.ownerId);
  assert.match(reset.clave!, /^[A-Za-z0-9_-]{20}$/);
  assert.equal(reset.sesiones_cerradas, 1);
  assert.equal((await browserRequest(h.url, 'GET', '/api/sesion', { cookie: s.cookie })).status, 401);
  await signIn(h.url, OWNER_EMAIL, reset.clave);
});

test('no CORS: no Access-Control-* header on API answers, preflights included', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const origin = { origin: 'https://attacker.example' };
  const answers = [
    await browserRequest(h.url, 'POST', '/api/sesion', {
      json: { email: OWNER_EMAIL, clave: OWNER_PASSWORD },
      headers: origin,
    }),
    await browserRequest(h.url, 'OPTIONS', '/api/sesion', {
      headers: { ...origin, 'access-control-request-method': 'POST' },
    }),
    await browserRequest(h.url, 'GET', '/api/companies', {
      headers: { ...origin, authorization: `Bearer ${h.writeKey}` },
    }),
  ];
  for (const res of answers) {
    const cors = [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
    assert.deepEqual(cors, [], `status ${res.status}`);
  }
  const preflight = answers[1]!;
  assert.ok(preflight.status >= 400, 'a preflight is refused');
});

test(
  'sessions and links that ended long ago are deleted; open ones stay',
  sqliteOnly('cuenta las filas de sesiones en cerebro.db'),
  async (t) => {
    let now = Date.now();
    const h = await startTestHost(t, { clock: { now: () => now } });
    await withPassword(h);
    const old = await signIn(h.url);
    await browserRequest(h.url, 'DELETE', '/api/sesion', { cookie: old.cookie, csrf: old.csrf });
    await studioAdmin(h).issueSignInLink(h.ownerId, h.url);
    now += 31 * 86_400_000;
    const fresh = await signIn(h.url);
    await studioAdmin(h).issueSignInLink(h.ownerId, h.url);
    const db = new Database(join(h.dataDir, 'cerebro.db'), { readonly: true });
    t.after(() => db.close());
    const sessions = db.prepare('SELECT count(*) AS n FROM console_sessions WHERE owner_id = ?').get(h.ownerId) as {
      n: number;
    };
    const links = db.prepare('SELECT count(*) AS n FROM sign_in_links').get() as { n: number };
    assert.equal(sessions.n, 1, 'only the new session row is left');
    assert.equal(links.n, 1, 'only the new link is left');
    assert.equal((await browserRequest(h.url, 'GET', '/api/sesion', { cookie: fresh.cookie })).status, 200);
  },
);

test('guessing the current password through the profile is limited like sign-in (a stolen session cannot brute-force it)', async (t) => {
  const h = await startTestHost(t);
  await withPassword(h);
  const s = await signIn(h.url);
  const patch = (clave_actual: string) =>
    browserRequest(h.url, 'PATCH', '/api/perfil', {
      cookie: s.cookie,
      csrf: s.csrf,
      json: { clave_nueva: 'la nueva clave elegida', clave_actual },
    });
  for (let i = 0; i < 5; i++) assert.equal((await patch(`intento ${i} equivocado`)).status, 403);
  const limited = await patch(OWNER_PASSWORD);
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
  assert.equal(
    (await browserRequest(h.url, 'POST', '/api/sesion', { json: { email: OWNER_EMAIL, clave: OWNER_PASSWORD } }))
      .status,
    201,
    'the password did not change',
  );
});

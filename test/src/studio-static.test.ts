// Studio's static files at /studio/ and the one-time sign-in links (issues #14 and #23: a GET never spends one).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { rawRequest } from './support/raw-http.js';
import { browserRequest, cookieFrom, studioAdmin, withPassword } from './support/studio.js';

const SECRET = 'CONTENIDO-FUERA-DE-STUDIO';
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-src 'self'; frame-ancestors 'none'";

/** A built console in a temporary folder, with a file beside it that must never be served. */
async function builtStudio(t: TestContext): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-studio-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const dist = join(root, 'dist');
  await mkdir(join(dist, 'assets'), { recursive: true });
  await writeFile(
    join(dist, 'index.html'),
    '<!doctype html><title>Studio</title><script type="module" src="/studio/assets/app-3f9a1c.js"></script>',
  );
  await writeFile(join(dist, 'assets', 'app-3f9a1c.js'), 'console.log("studio");');
  await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(dist, '.env'), SECRET);
  await writeFile(join(root, 'secreto.txt'), SECRET);
  return dist;
}

test('serves the built console with strict headers: immutable hashed assets, no-cache index, client routes get index.html', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_STUDIO_DIR: await builtStudio(t) } });
  const index = await browserRequest(h.url, 'GET', '/studio/');
  assert.equal(index.status, 200);
  assert.match(index.text, /<title>Studio<\/title>/);
  assert.match(index.headers.get('content-type')!, /^text\/html/);
  assert.equal(index.headers.get('cache-control'), 'no-cache');
  assert.ok(
    index.headers.get('content-security-policy')!.startsWith(CSP),
    index.headers.get('content-security-policy')!,
  );
  assert.equal(index.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(index.headers.get('referrer-policy'), 'no-referrer');
  assert.match(index.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);

  const asset = await browserRequest(h.url, 'GET', '/studio/assets/app-3f9a1c.js');
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get('content-type')!, /javascript/);
  assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const etag = asset.headers.get('etag')!;
  assert.equal(
    (await browserRequest(h.url, 'GET', '/studio/assets/app-3f9a1c.js', { headers: { 'if-none-match': etag } })).status,
    304,
  );

  for (const route of ['/studio/claves', '/studio/espacios/demo/documentos', '/studio/index.html']) {
    const page = await browserRequest(h.url, 'GET', route);
    assert.equal(page.status, 200, route);
    assert.match(page.text, /<title>Studio<\/title>/, route);
  }
  assert.equal(
    (await browserRequest(h.url, 'GET', '/studio/assets/no-existe.js')).status,
    404,
    'a missing file is not the index',
  );
  for (const range of ['bytes=5-2', 'bytes=abc', 'bytes=-3', 'bytes=0-1', 'bytes=999999-']) {
    const ranged = await browserRequest(h.url, 'GET', '/studio/assets/app-3f9a1c.js', { headers: { range } });
    assert.equal(ranged.status, 200, `Range ${range}: the whole file`);
    assert.equal(ranged.text, 'console.log("studio");');
  }
  const bare = await browserRequest(h.url, 'GET', '/studio');
  assert.equal(bare.status, 301);
  assert.equal(bare.headers.get('location'), '/studio/');
  assert.equal((await browserRequest(h.url, 'HEAD', '/studio/')).status, 200);
  const cors = [...index.headers.keys()].filter((n) => n.startsWith('access-control-'));
  assert.deepEqual(cors, []);
});

test('no path leaves the build folder, however it is spelt; dotfiles are not served', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_STUDIO_DIR: await builtStudio(t) } });
  const attempts = [
    '/studio/../secreto.txt',
    '/studio/..%2fsecreto.txt',
    '/studio/%2e%2e/secreto.txt',
    '/studio/%2e%2e%2fsecreto.txt',
    '/studio/assets/../../secreto.txt',
    '/studio/assets/..%2f..%2fsecreto.txt',
    '/studio/..\\secreto.txt',
    '/studio/%2e%2e%5csecreto.txt',
    '/studio//secreto.txt',
    '/studio/.env',
    '/studio/%2eenv',
    '/studio/assets/%2e%2e/.env',
    '/studio/../../../../etc/passwd',
    '/studio/%252e%252e%252fsecreto.txt',
    '/studio/%c0%ae%c0%ae/secreto.txt',
    '/studio/secreto.txt%00.html',
  ];
  for (const path of attempts) {
    const res = await rawRequest(h.url, { method: 'GET', path });
    assert.ok(!res.text.includes(SECRET), `${path} leaked the file`);
    assert.ok(!res.text.includes('root:x:0'), `${path} leaked /etc/passwd`);
    assert.ok([200, 400, 404].includes(res.status), `${path}: ${res.status}`);
  }
});

test('without a built console, /studio/ answers a clear 503 page and the API still works', async (t) => {
  const empty = await mkdtemp(join(tmpdir(), 'cerebro-studio-vacio-'));
  t.after(() => rm(empty, { recursive: true, force: true }));
  const h = await startTestHost(t, { env: { CEREBRO_STUDIO_DIR: empty } });
  const res = await browserRequest(h.url, 'GET', '/studio/');
  assert.equal(res.status, 503);
  assert.match(res.text, /Studio no está construido/);
  assert.match(res.headers.get('content-type')!, /^text\/html/);
  assert.ok(res.headers.get('content-security-policy'));
  assert.equal((await h.client.get('/companies')).status, 200);
});

test('a one-time sign-in link: its GET only serves the console (a mail scanner uses nothing up), the POST opens a session once', async (t) => {
  let now = Date.now();
  const h = await startTestHost(t, { clock: { now: () => now }, env: { CEREBRO_STUDIO_DIR: await builtStudio(t) } });
  await withPassword(h);
  const { enlace, expira } = await studioAdmin(h).issueSignInLink(h.ownerId, h.url);
  assert.match(enlace, new RegExp(`^${h.url}/studio/entrar\\?token=[0-9a-f]{16}\\.[A-Za-z0-9_-]{43}$`));
  assert.equal(Date.parse(expira), now + 30 * 60_000);
  const path = enlace.slice(h.url.length);
  const token = new URL(enlace).searchParams.get('token')!;

  // A scanner (or a link preview) fetching the link, any number of times and with any method it likes.
  for (const method of ['GET', 'GET', 'HEAD']) {
    const scanned = await browserRequest(h.url, method, path);
    assert.equal(scanned.status, 200, method);
    assert.deepEqual(scanned.setCookies, [], 'loading the page opens no session');
    assert.equal(scanned.headers.get('referrer-policy'), 'no-referrer', 'the token does not leak through Referer');
    assert.equal(scanned.headers.get('cache-control'), 'no-cache');
    if (method === 'GET')
      assert.match(scanned.text, /<title>Studio<\/title>/, 'the console, whose page asks for the click');
  }
  // A cross-site form cannot send JSON, and the route takes nothing else.
  const form = await rawRequest(h.url, {
    method: 'POST',
    path: '/api/sesion/enlace',
    body: `token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://otro.example' },
  });
  assert.equal(form.status, 415, form.text);
  assert.equal(form.headers['set-cookie'], undefined);

  const first = await browserRequest(h.url, 'POST', '/api/sesion/enlace', { json: { token } });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.propietario.id, h.ownerId);
  assert.equal(typeof first.body.csrf, 'string');
  const cookie = cookieFrom(first.setCookies);
  const session = await browserRequest(h.url, 'GET', '/api/sesion', { cookie });
  assert.equal(session.status, 200);
  const listed = await browserRequest(h.url, 'GET', '/api/sesiones', { cookie });
  assert.equal(listed.body.sesiones[0].origen, 'enlace');

  const again = await browserRequest(h.url, 'POST', '/api/sesion/enlace', { json: { token } });
  assert.equal(again.status, 401);
  assert.equal(again.body.codigo, 'sign_in_link_invalid');
  assert.match(again.body.detail, /no es válido, ya se usó o caducó/);
  assert.deepEqual(again.setCookies, []);

  const late = new URL((await studioAdmin(h).issueSignInLink(h.ownerId, h.url)).enlace).searchParams.get('token')!;
  now += 31 * 60_000;
  const expired = await browserRequest(h.url, 'POST', '/api/sesion/enlace', { json: { token: late } });
  assert.equal(expired.body.codigo, 'sign_in_link_invalid');
  assert.deepEqual(expired.setCookies, []);
  for (const bad of ['', 'abc', `${late.slice(0, -3)}xyz`, 'x'.repeat(128)]) {
    const res = await browserRequest(h.url, 'POST', '/api/sesion/enlace', { json: { token: bad } });
    assert.ok(res.status === 401 || res.status === 422, `${bad}: ${res.status}`);
    assert.deepEqual(res.setCookies, []);
  }
});

test("operator routes: set an owner's email, reset the password, issue a link (all refused to owners)", async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_PUBLIC_URL: 'https://cerebro.example.com/' } });
  const operator = (await h.admin.issueOperatorCredential('op')).token;
  const op = h.client.as(operator);
  const email = await op.patch(`/admin/propietarios/${h.ownerId}`, { json: { email: 'Jefa@Example.com' } });
  assert.equal(email.status, 200, email.text);
  assert.deepEqual(email.body, { id: h.ownerId, email: 'jefa@example.com' });
  assert.equal((await op.patch(`/admin/propietarios/${h.ownerId}`, { json: { email: 'no es un email' } })).status, 422);
  const other = await h.admin.createOwner({ name: 'Otra' });
  assert.equal(
    (await op.patch(`/admin/propietarios/${other.id}`, { json: { email: 'JEFA@example.com' } })).status,
    409,
  );
  assert.equal((await op.patch(`/admin/propietarios/${h.ownerId}`, { json: {} })).status, 422);

  const set = await op.put(`/admin/propietarios/${h.ownerId}/clave`, {
    json: { clave: 'clave elegida por el operador' },
  });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(set.body, { id: h.ownerId, sesiones_cerradas: 0 });
  assert.equal(set.headers.get('cache-control'), 'no-store');
  assert.equal(
    (
      await browserRequest(h.url, 'POST', '/api/sesion', {
        json: { email: 'jefa@example.com', clave: 'clave elegida por el operador' },
      })
    ).status,
    201,
  );
  const generated = await op.put(`/admin/propietarios/${h.ownerId}/clave`, { json: {} });
  assert.equal(generated.body.sesiones_cerradas, 1);
  assert.equal(typeof generated.body.clave, 'string');
  assert.equal((await op.put(`/admin/propietarios/${h.ownerId}/clave`, { json: { clave: 'corta' } })).status, 422);

  const link = await op.post(`/admin/propietarios/${h.ownerId}/enlace`);
  assert.equal(link.status, 201, link.text);
  assert.match(link.body.enlace, /^https:\/\/cerebro\.example\.com\/studio\/entrar\?token=/);
  assert.equal((await op.post('/admin/propietarios/own_nadie/enlace')).status, 404);

  for (const key of [h.writeKey, (await h.admin.issueConsoleSession(h.ownerId)).token]) {
    assert.equal((await h.client.post(`/admin/propietarios/${h.ownerId}/enlace`, { key })).status, 403);
    assert.equal((await h.client.put(`/admin/propietarios/${h.ownerId}/clave`, { key, json: {} })).status, 403);
  }
});

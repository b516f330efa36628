// Studio's cookie and CSRF defences in a real browser (Debian chromium): a signed-in owner visits a hostile page,
// which tries to create a key and to read the key list with the owner's session (issue #14, back end).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost } from '@cerebro/host';
import { TestClient } from '@cerebro/sdk/testing';
import { launchBrowser } from './support/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/studio.js';

interface LogLine {
  msg: string;
  route?: string;
  method?: string;
  status?: number;
}

/** The attacker's page: a form post, a no-cors fetch, a JSON fetch (needs a preflight) and a read, all at `target`. */
const hostilePage = (target: string) => `<!doctype html><html><head><title>oferta</title></head><body>
<iframe name="sumidero"></iframe>
<form id="f" method="post" action="${target}/api/tokens" target="sumidero" enctype="application/x-www-form-urlencoded">
<input name="nombre" value="robada-formulario"></form>
<script>
const results = {};
const settle = (name, p) => p.then((r) => { results[name] = r.type === 'opaque' ? 'opaca' : r.status; }, () => { results[name] = 'bloqueada'; });
document.querySelector('iframe').addEventListener('load', async () => {
  await settle('texto', fetch('${target}/api/tokens', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"nombre":"robada-texto"}' }));
  await settle('json', fetch('${target}/api/tokens', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', 'x-csrf-token': 'adivinado' }, body: '{"nombre":"robada-json"}' }));
  await settle('lectura', fetch('${target}/api/tokens', { credentials: 'include' }).then((r) => r.text().then(() => r)));
  document.title = 'hecho:' + JSON.stringify(results);
}, { once: true });
document.getElementById('f').submit();
</script></body></html>`;

test("a hostile page cannot use the owner's session: CSRF stops same-site posts, SameSite=Strict cross-site ones, no CORS stops reads", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-studio-browser-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  await writeFile(
    join(dataDir, 'index.html'),
    '<!doctype html><html lang="es"><head><title>Studio</title></head><body><main><h1>Studio</h1></main></body></html>',
  );
  const written: string[] = [];
  const host = await startHost({
    config: {
      dataDir,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'info',
      discoverPlugins: false,
      bootstrapDemo: false,
      studioDir: dataDir,
    },
    logDestination: {
      write: (chunk: string) => {
        written.push(chunk);
      },
    },
  });
  t.after(() => host.close());
  const admin = host.admin as unknown as {
    createOwner(i: { name: string; email: string }): Promise<{ id: string }>;
    createSpace(i: { id: string; ownerId: string; modules: string[] }): void;
    issueKey(owner: string, name: string, spaces: string[], permiso: 'lee' | 'escribe'): Promise<{ token: string }>;
    setOwnerPassword(id: string, password: string): Promise<unknown>;
  };
  const owner = await admin.createOwner({ name: 'Ana', email: OWNER_EMAIL });
  await admin.createSpace({ id: 'tienda', ownerId: owner.id, modules: ['api'] });
  const key = (await admin.issueKey(owner.id, 'servidor', [], 'escribe')).token;
  await admin.setOwnerPassword(owner.id, OWNER_PASSWORD);

  const hostile: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostilePage(host.url));
  });
  await new Promise<void>((ok) => hostile.listen(0, '127.0.0.1', ok));
  t.after(
    () =>
      new Promise<void>((ok) => {
        hostile.close(() => ok());
        hostile.closeAllConnections();
      }),
  );
  const hostilePort = (hostile.address() as AddressInfo).port;

  const browser = await launchBrowser();
  t.after(() => browser.close());
  const context = await browser.context();
  const page = await context.newPage();
  await page.goto(`${host.url}/studio/`);
  const signedIn = await page.evaluate(
    async ([email, clave]) => {
      const res = await fetch('/api/sesion', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, clave }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { csrf: string },
        scriptSees: (globalThis as unknown as { document: { cookie: string } }).document.cookie,
      };
    },
    [OWNER_EMAIL, OWNER_PASSWORD] as const,
  );
  assert.equal(signedIn.status, 201);
  assert.equal(signedIn.scriptSees, '', 'HttpOnly: page scripts never see the session cookie');
  // The owner's own page, with the token, does create a key: the defences below are not a broken console.
  const own = await page.evaluate(
    async (csrf) =>
      (
        await fetch('/api/tokens', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: '{"nombre":"desde-studio"}',
        })
      ).status,
    signedIn.body.csrf as string,
  );
  assert.equal(own, 201);

  const attack = async (origin: string) => {
    const hostileTab = await context.newPage();
    await hostileTab.goto(`${origin}/oferta`);
    await hostileTab.waitForFunction("document.title.startsWith('hecho:')", undefined, { timeout: 15_000 });
    const results = JSON.parse((await hostileTab.title()).slice('hecho:'.length)) as Record<string, unknown>;
    await hostileTab.close();
    return results;
  };
  const tokenPosts = () =>
    written
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LogLine)
      .filter((l) => l.msg === 'petición' && l.route === 'POST /tokens')
      .map((l) => l.status);

  // Same site, other origin (another port of 127.0.0.1): the browser sends the Strict cookie; the CSRF token stops it.
  const sameSite = await attack(`http://127.0.0.1:${hostilePort}`);
  assert.deepEqual(sameSite, { texto: 'opaca', json: 'bloqueada', lectura: 'bloqueada' });
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(
    tokenPosts(),
    [201, 403, 403],
    'form and text posts arrived with the cookie and were refused for CSRF; the JSON one never left (preflight)',
  );

  // Another site (localhost is not 127.0.0.1): SameSite=Strict keeps the cookie home, so there is no session at all.
  const crossSite = await attack(`http://localhost:${hostilePort}`);
  assert.deepEqual(crossSite, { texto: 'opaca', json: 'bloqueada', lectura: 'bloqueada' });
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(tokenPosts(), [201, 403, 403, 401, 401], 'without the cookie: 401');

  const keys = (await new TestClient(`${host.url}/api`, key).get('/tokens')).body.tokens as { nombre: string }[];
  assert.deepEqual(
    keys.map((k) => k.nombre).sort(),
    ['desde-studio', 'servidor'],
    'no key was created by the hostile page',
  );
});

// Studio's log lines: every console file and sign-in link request is logged with its request id, and no password,
// session secret, CSRF token or link token ever reaches the log (issue #14).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost } from '@cerebro/host';
import { OWNER_PASSWORD, browserRequest, signIn } from './support/studio.js';

interface LogLine {
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  route?: string;
  status?: number;
}

test('console files and links are logged with the request id; no secret of sign-in is ever logged', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-studiolog-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const studioDir = join(dataDir, 'studio');
  await mkdir(studioDir);
  await writeFile(join(studioDir, 'index.html'), '<!doctype html><title>Studio</title>');
  const written: string[] = [];
  const host = await startHost({
    config: {
      dataDir,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'info',
      discoverPlugins: false,
      bootstrapDemo: false,
      studioDir,
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
    setOwnerPassword(id: string, password: string): Promise<unknown>;
    issueSignInLink(id: string, origin: string): Promise<{ enlace: string }>;
  };
  const owner = await admin.createOwner({ name: 'Ana', email: 'duena@example.com' });
  await admin.setOwnerPassword(owner.id, OWNER_PASSWORD);

  const session = await signIn(host.url);
  await browserRequest(host.url, 'POST', '/api/sesion', {
    json: { email: 'duena@example.com', clave: 'una clave que no es' },
  });
  const page = await browserRequest(host.url, 'GET', '/studio/', { headers: { 'x-request-id': 'traza-studio' } });
  assert.equal(page.status, 200);
  const link = (await admin.issueSignInLink(owner.id, host.url)).enlace;
  const opened = await browserRequest(host.url, 'GET', link.slice(host.url.length));
  assert.equal(opened.status, 200);
  const entered = await browserRequest(host.url, 'POST', '/api/sesion/enlace', {
    json: { token: link.split('token=')[1] },
  });
  assert.equal(entered.status, 201);
  await browserRequest(host.url, 'DELETE', '/api/sesion', { cookie: session.cookie, csrf: session.csrf });
  await new Promise((r) => setTimeout(r, 50));

  const text = written.join('');
  const secrets = {
    password: OWNER_PASSWORD,
    'wrong password': 'una clave que no es',
    'session secret': session.cookie.split('.')[1]!,
    csrf: session.csrf,
    'link token': link.split('token=')[1]!.split('.')[1]!,
    'link cookie': entered.setCookies[0]!.split('.')[1]!.split(';')[0]!,
  };
  for (const [name, secret] of Object.entries(secrets)) assert.ok(!text.includes(secret), `the ${name} is in the logs`);
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.msg === 'petición');
  const studio = lines.find((l) => l.reqId === 'traza-studio');
  assert.deepEqual(studio && { method: studio.method, path: studio.path, status: studio.status }, {
    method: 'GET',
    path: '/studio/',
    status: 200,
  });
  const linkLine = lines.find((l) => l.path === '/studio/entrar');
  assert.equal(linkLine?.status, 200, 'the link page is logged, without its query string');
  assert.deepEqual(
    lines.filter((l) => l.route === 'POST /sesion/enlace').map((l) => l.status),
    [201],
  );
  assert.deepEqual(
    lines.filter((l) => l.route === 'POST /sesion').map((l) => l.status),
    [201, 401],
  );
});

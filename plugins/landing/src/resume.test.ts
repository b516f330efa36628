// A version still `generando` when the server stops is built again at the next start, on the same data: the
// caller paid for it and sees it finish, without asking twice.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { TestClient } from '@cerebro/sdk/testing';
import { landing, marca, PRODUCTS, SHOES, ventas } from './test-support.js';

type Host = { url: string; close(): Promise<void>; admin: any };

async function startOn(dataDir: string, env: Record<string, string>): Promise<Host> {
  const specifier = '@cerebro/host';
  const { startHost } = (await import(specifier)) as { startHost: (o: unknown) => Promise<Host> };
  return startHost({
    env: { ...process.env, CEREBRO_LOG_LEVEL: 'silent', ...env },
    config: {
      dataDir,
      port: 0,
      host: '127.0.0.1',
      discoverPlugins: false,
      bootstrapDemo: false,
      shutdownGraceMs: 2000,
    },
    plugins: [marca, ventas, landing],
  });
}

test('a version interrupted by a shutdown is built at the next start', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-landing-resume-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  // The first process's model never answers: its version is still being worded when the server stops.
  let calls = 0;
  const model = createServer((req, res) => {
    calls++;
    req.resume();
    req.on('end', () => {
      if (hold) return; // left hanging until the server stops
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'sin JSON' } }] }));
    });
  });
  let hold = true;
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        model.closeAllConnections();
        model.close(() => resolve());
      }),
  );
  const env = {
    CEREBRO_LLM_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
    CEREBRO_LLM_MODEL: 'prueba',
  };

  const first = await startOn(dataDir, env);
  const owner = await first.admin.createOwner({ name: 'Tienda', credits: 100 });
  await first.admin.createSpace({ id: 'tienda', ownerId: owner.id, modules: ['api', 'marca', 'ventas', 'landing'] });
  const key = (await first.admin.issueKey(owner.id, 'escribe', [], 'escribe')).token as string;
  let client = new TestClient(`${first.url}/api`, key);
  for (const p of PRODUCTS)
    assert.equal((await client.put(`/mod/ventas/tienda/productos/${p.id}`, { json: p })).status, 201);
  const created = await client.post('/mod/landing/tienda/landings', { json: SHOES });
  assert.equal(created.status, 202);
  for (let i = 0; i < 400 && calls === 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(calls, 1, 'the first process was wording the page');
  await first.close();

  hold = false;
  const second = await startOn(dataDir, env);
  t.after(() => second.close());
  client = new TestClient(`${second.url}/api`, key);
  let state: any;
  for (let i = 0; i < 300; i++) {
    state = (await client.get(`/mod/landing/tienda/landings/${created.body.id}`)).body;
    if (state.estado !== 'generando') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(state.estado, 'lista', JSON.stringify(state.versiones[0]));
  assert.equal(state.versiones.length, 1);
  assert.equal((await client.get(`/cuentas/${owner.cuenta}/bolsa`)).body.saldo, 98, 'charged once');
});

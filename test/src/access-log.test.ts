import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost } from '@cerebro/host';
import { TestClient } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

interface LogLine {
  msg: string;
  reqId?: string;
  method?: string;
  route?: string;
  path?: string;
  status?: number;
  ms?: number;
  espera_ms?: number;
  espacio?: string;
  clave?: string;
}

test('every request writes one access line, routed or not, and no line ever holds a key', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-accesslog-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const written: string[] = [];
  const host = await startHost({
    config: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'info', discoverPlugins: false, bootstrapDemo: false },
    plugins: [echoPlugin()],
    logDestination: {
      write: (chunk: string) => {
        written.push(chunk);
      },
    },
  });
  t.after(() => host.close());
  const owner = await host.admin.createOwner({ name: 'P' });
  await host.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['api', 'eco'] });
  const key = await host.admin.issueKey(owner.id, 'k', [], 'escribe');
  const client = new TestClient(`${host.url}/api`, key.token);

  const ok = await client.get('/mod/eco/uno/eco', { headers: { 'x-request-id': 'traza-1' } });
  assert.equal(ok.status, 200);
  assert.equal((await client.get('/companies', { key: `${key.token.slice(0, -1)}x` })).status, 401);
  assert.equal((await client.get(`/no-existe/${key.token}?token=${key.token}`)).status, 404);
  await new Promise((r) => setImmediate(r)); // lines are handed over once per event-loop turn

  const text = written.join('');
  assert.ok(!text.includes(key.token.split('.')[1]!), 'no secret in the logs');
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.msg === 'petición');
  assert.equal(lines.length, 3);
  const [served, refused, unknown] = lines;
  assert.deepEqual(
    {
      reqId: served!.reqId,
      method: served!.method,
      route: served!.route,
      status: served!.status,
      espacio: served!.espacio,
      clave: served!.clave,
    },
    { reqId: 'traza-1', method: 'GET', route: 'GET /mod/eco/:espacio/eco', status: 200, espacio: 'uno', clave: key.id },
  );
  assert.equal(typeof served!.ms, 'number');
  assert.equal(served!.espera_ms, 0, 'a route without a turn to wait for waited 0 ms');
  assert.deepEqual([refused!.route, refused!.status, refused!.clave], ['GET /companies', 401, undefined]);
  assert.deepEqual([unknown!.path, unknown!.status], ['/api/no-existe/[oculto]', 404]);
});

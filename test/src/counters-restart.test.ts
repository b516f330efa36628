import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost, type RunningHost } from '@cerebro/host';
import { TestClient } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

test('call counters and the daily quota are exact across a graceful restart, without a write per request', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-counters-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  // A flush interval far longer than the test: only shutdown writes the counters.
  const start = () =>
    startHost({
      config: {
        dataDir,
        port: 0,
        host: '127.0.0.1',
        logLevel: 'silent',
        discoverPlugins: false,
        bootstrapDemo: false,
        counterFlushMs: 3_600_000,
      },
      plugins: [echoPlugin()],
    });

  let host: RunningHost = await start();
  const owner = await host.admin.createOwner({ name: 'P' });
  await host.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['api', 'eco'] });
  const key = await host.admin.issueKey(owner.id, 'k', [], 'escribe');
  let client = new TestClient(`${host.url}/api`, key.token);
  await client.patch('/companies/uno/api-config', { json: { cuota_diaria: 6 } });
  for (let i = 0; i < 3; i++) assert.equal((await client.get('/mod/eco/uno/eco')).status, 200);
  const before = (await client.get('/tokens')).body.tokens[0];
  assert.equal(before.llamadas, 5); // PATCH, 3 GET, and this listing itself
  await host.close();

  host = await start();
  t.after(() => host.close());
  client = new TestClient(`${host.url}/api`, key.token);
  const after = (await client.get('/tokens')).body.tokens[0];
  assert.equal(after.llamadas, 6);
  assert.deepEqual(after.por_ruta, {
    'PATCH /companies/:espacio/api-config': 1,
    'GET /mod/eco/:espacio/eco': 3,
    'GET /tokens': 2,
  });
  assert.ok(Date.parse(after.ultimo_uso) >= Date.parse(before.ultimo_uso));
  // Daily quota 6 on the space: PATCH + 3 GET were counted before the restart, so two more pass.
  assert.equal((await client.get('/mod/eco/uno/eco')).status, 200);
  assert.equal((await client.get('/mod/eco/uno/eco')).status, 200);
  const over = await client.get('/mod/eco/uno/eco');
  assert.equal(over.status, 429);
  assert.match(over.body.detail, /cuota diaria de 6/);
  assert.ok(Number(over.headers.get('retry-after')) > 0);
});

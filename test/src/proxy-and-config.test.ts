// Caller IP behind proxies and strict configuration values (issue #16, defect 6).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { definePlugin, HostServices } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { startHost } from '@cerebro/host';
import { echoPlugin } from './support/plugins.js';

test('behind a trusted proxy, a client-written X-Forwarded-For entry does not pass the IP allow-list', async (t) => {
  // The test client connects from 127.0.0.1, which plays the proxy here.
  const h = await startTestHost(t, { plugins: [echoPlugin()], env: { CEREBRO_TRUST_PROXY: 'loopback' } });
  assert.equal(
    (await h.client.patch(`/companies/${h.spaceId}/api-config`, { json: { ips_permitidas: ['203.0.113.7'] } })).status,
    200,
  );
  const asSeenBy = (forwarded: string) =>
    h.client.get(`/mod/eco/${h.spaceId}/eco`, { headers: { 'x-forwarded-for': forwarded } });

  assert.equal((await asSeenBy('203.0.113.7')).status, 200, 'the allowed client, as the proxy reports it');
  // The client sends "X-Forwarded-For: 203.0.113.7"; the proxy appends the address it really saw.
  const spoofed = await asSeenBy('203.0.113.7, 198.51.100.1');
  assert.equal(spoofed.status, 403);
  assert.match(spoofed.body.detail, /IP de origen/);
});

test('without a trusted proxy X-Forwarded-For is ignored', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  await h.client.patch(`/companies/${h.spaceId}/api-config`, { json: { ips_permitidas: ['203.0.113.7'] } });
  assert.equal(
    (await h.client.get(`/mod/eco/${h.spaceId}/eco`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status,
    403,
  );
});

test('the host refuses to start on CEREBRO_TRUST_PROXY=true or an unknown boolean value, naming the variable', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-config-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const start = (env: Record<string, string>) =>
    startHost({
      env: { CEREBRO_LOG_LEVEL: 'silent', ...env },
      config: { dataDir, port: 0, host: '127.0.0.1', discoverPlugins: false, bootstrapDemo: false },
    });
  await assert.rejects(start({ CEREBRO_TRUST_PROXY: 'true' }), /CEREBRO_TRUST_PROXY=true ya no se admite.*loopback/);
  await assert.rejects(start({ CEREBRO_TRUST_PROXY: 'mi-proxy' }), /CEREBRO_TRUST_PROXY debe ser/);
  await assert.rejects(
    start({ CEREBRO_BOOTSTRAP_DEMO: 'ture' }),
    /CEREBRO_BOOTSTRAP_DEMO debe ser true o false.*"ture"/,
  );
  await assert.rejects(start({ CEREBRO_DISCOVER_PLUGINS: 'nope' }), /CEREBRO_DISCOVER_PLUGINS debe ser true o false/);
});

test('a plugin boolean setting with an unknown value disables the plugin at start, naming the variable', async (t) => {
  const flagged = definePlugin({
    manifest: {
      id: 'bandera',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Bandera',
      routes: [],
      needs: [HostServices.Config],
      config: { activo: true },
    },
    setup: (scope) => {
      scope.resolve(HostServices.Config);
      return { handlers: {} };
    },
  });
  const bad = await startTestHost(t, { plugins: [flagged], env: { CEREBRO_BANDERA_ACTIVO: 'ture' } });
  const plugin = bad.host.plugins[0] as { state: string; error?: Error };
  assert.equal(plugin.state, 'fallido');
  assert.match(plugin.error!.message, /CEREBRO_BANDERA_ACTIVO debe ser true o false.*"ture"/);
  const good = await startTestHost(t, { plugins: [flagged], env: { CEREBRO_BANDERA_ACTIVO: 'off' } });
  assert.equal(good.host.plugins[0]!.state, 'activo');
});

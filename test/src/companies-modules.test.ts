// GET /companies advertises only modules a client can use: `api` and installed plugins. A module stored for a
// plugin that is gone (or stored before module ids were validated) stays in the database and comes back when its
// plugin is installed again.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { startTestHost, TestClient } from '@cerebro/sdk/testing';
import { startHost } from '@cerebro/host';
import { echoPlugin } from './support/plugins.js';
import { sqliteOnly } from './support/backend.js';

const modulesOf = (body: { espacios: { id: string; modulos: string[] }[] }, spaceId: string) =>
  body.espacios.find((e) => e.id === spaceId)?.modulos;

test(
  'a stored module without its plugin is omitted from GET /companies, and shows again once the plugin is back',
  sqliteOnly('escribe space_modules directamente en cerebro.db'),
  async (t) => {
    const h = await startTestHost(t, { plugins: [echoPlugin()] });
    // Rows as an older host (or a since-removed plugin) left them, written behind the admin service's back.
    const db = new Database(join(h.dataDir, 'cerebro.db'));
    const seed = db.prepare('INSERT INTO space_modules (space_id, module, enabled_at) VALUES (?, ?, ?)');
    seed.run(h.spaceId, 'retirado', '2025-01-01T00:00:00.000Z');
    seed.run(h.spaceId, 'no existe', '2025-01-01T00:00:00.000Z');
    db.close();

    const before = await h.client.get('/companies');
    assert.equal(before.status, 200);
    assert.deepEqual(modulesOf(before.body, h.spaceId), ['api', 'eco']);

    // The same data with a plugin "retirado" installed again: its module is advertised, still stored.
    await h.host.close();
    const again = await startHost({
      env: { ...process.env, CEREBRO_LOG_LEVEL: 'silent' },
      config: { dataDir: h.dataDir, port: 0, host: '127.0.0.1', discoverPlugins: false, bootstrapDemo: false },
      plugins: [echoPlugin(), echoPlugin({ id: 'retirado' })],
    });
    try {
      const after = await new TestClient(`${again.url}/api`, h.writeKey).get('/companies');
      assert.deepEqual(modulesOf(after.body, h.spaceId), ['api', 'eco', 'retirado']);
    } finally {
      await again.close(); // before the test host's cleanup removes the data directory
    }
  },
);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

test('graceful shutdown lets the request in flight finish, refuses new ones, then disposes plugins and closes', async (t) => {
  let release!: () => void;
  let entered!: () => void;
  const inHandler = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const events: string[] = [];
  const plugin = echoPlugin(
    {},
    {
      leer: async () => {
        entered();
        await gate;
        events.push('handler done');
        return { ok: true };
      },
      escribir: () => ({}),
    },
  );
  const withDispose = {
    ...plugin,
    setup: async (scope: Parameters<typeof plugin.setup>[0]) => ({
      ...(await plugin.setup(scope)),
      dispose: () => {
        events.push('disposed');
      },
    }),
  };
  const h = await startTestHost(t, { plugins: [withDispose] });

  const slow = h.client.get(`/mod/eco/${h.spaceId}/eco`);
  await inHandler;
  const closing = h.host.close().then(() => events.push('closed'));
  // While draining, a new request on a fresh connection is refused (socket closed or 503), never served.
  const late = await h.client.get('/ready', { key: null }).then(
    (r) => r.status,
    () => 'refused',
  );
  assert.ok(late === 503 || late === 'refused', `late request got ${late}`);
  release();
  const res = await slow;
  assert.deepEqual([res.status, res.body], [200, { ok: true }]);
  await closing;
  assert.deepEqual(events, ['handler done', 'disposed', 'closed']);
});

test('readiness answers 200 when ready; health reports the phase', async (t) => {
  const h = await startTestHost(t, { plugins: [] });
  assert.deepEqual((await h.client.get('/ready', { key: null })).body, { listo: true, rol: 'todo' });
  assert.equal((await h.client.get('/health', { key: null })).body.estado, 'ready');
});

// The sdk's SpaceDirectory as a plugin gets it: the async reads (sdk 2.1) and the deprecated synchronous ones agree,
// and both see an operator's change to the space's modules at once (the directory's memo is emptied by the write).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definePlugin, HostServices, type SpaceDirectory } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { onPostgres } from './support/backend.js';

function directoryPlugin(handles: { spaces?: SpaceDirectory }) {
  return definePlugin({
    manifest: { id: 'guia', version: '1.0.0', sdk: '^2.1.0', title: 'Guía', needs: [HostServices.Spaces], routes: [] },
    setup(scope) {
      handles.spaces = scope.resolve(HostServices.Spaces);
      return { handlers: {} };
    },
  });
}

test('SpaceDirectory: find and moduleEnabled answer as get and hasModule, also right after a module changes', async (t) => {
  const handles: { spaces?: SpaceDirectory } = {};
  const h = await startTestHost(t, { plugins: [directoryPlugin(handles)] });
  const spaces = handles.spaces!;
  const found = await spaces.find(h.spaceId);
  // The deprecated synchronous reads exist on SQLite only (PostgreSQL refuses them, naming find/moduleEnabled).
  if (!onPostgres) assert.deepEqual(found, spaces.get(h.spaceId));
  assert.deepEqual([found?.id, found?.accountId, found?.modules], [h.spaceId, h.accountId, ['api', 'guia']]);
  assert.equal(await spaces.find('no-existe'), undefined);
  assert.equal(await spaces.moduleEnabled(h.spaceId, 'guia'), true);
  assert.equal(await spaces.moduleEnabled(h.spaceId, 'ventas'), false);
  assert.equal(await spaces.moduleEnabled('no-existe', 'guia'), false);

  await h.admin.disableModule(h.spaceId, 'guia');
  assert.equal(await spaces.moduleEnabled(h.spaceId, 'guia'), false, 'the memo does not keep the old modules');
  if (!onPostgres) assert.equal(spaces.hasModule(h.spaceId, 'guia'), false);
  await h.admin.enableModule(h.spaceId, 'guia');
  assert.equal(await spaces.moduleEnabled(h.spaceId, 'guia'), true);
  assert.deepEqual((await spaces.find(h.spaceId))?.modules, ['api', 'guia']);
});

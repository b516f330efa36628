// GET /tokens shows only keys within the caller's reach (issue #16, defect 9).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';

test('a key limited to one space lists only keys limited to that space; wider callers list every key', async (t) => {
  const h = await startTestHost(t);
  await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api'] });
  await h.admin.createSpace({ id: 'tercero', ownerId: h.ownerId, modules: ['api'] });
  const only = await h.admin.issueKey(h.ownerId, 'solo-pruebas', [h.spaceId], 'lee');
  await h.admin.issueKey(h.ownerId, 'solo-otro', ['otro'], 'escribe');
  const both = await h.admin.issueKey(h.ownerId, 'pruebas-y-otro', [h.spaceId, 'otro'], 'lee');
  const names = async (key: string) =>
    ((await h.client.get('/tokens', { key })).body.tokens as { nombre: string }[]).map((k) => k.nombre).sort();

  assert.deepEqual(
    await names(only.token),
    ['solo-pruebas'],
    'not the all-spaces keys, not the other space, not a wider key',
  );
  assert.deepEqual(await names(both.token), ['pruebas-y-otro', 'solo-otro', 'solo-pruebas']);
  const everyKey = ['pruebas-escribe', 'pruebas-lee', 'pruebas-y-otro', 'solo-otro', 'solo-pruebas'];
  assert.deepEqual(await names(h.readKey), everyKey, 'a key reaching all spaces (empty list) sees all');
  assert.deepEqual(
    await names((await h.admin.issueConsoleSession(h.ownerId)).token),
    everyKey,
    'a console session sees all',
  );
});

// A request a paid route refuses anyway (a value its schema cannot check, a conversation that does not exist) is
// refused before the credits: it moves nothing in the credit history (no `consumo` and `reembolso` pair), and on an
// empty pool it is still answered with its own 4xx, not 402. Routes declare those refusals as their `check` (host) or
// `checks` (plugins), which the pipeline runs after every check of its own and before the price and the charge.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { definePlugin, invalidField } from '@cerebro/sdk';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

/** The account's credit history, newest first, as `motivo` and `delta` (`consumo-1`). */
const movements = async (h: TestHost): Promise<string[]> =>
  ((await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.movimientos as { motivo: string; delta: number }[]).map(
    (m) => `${m.motivo}${m.delta}`,
  );

/** A plugin with one paid route (4 credits) whose check refuses a body without `valido: true`; counts both calls. */
function checkedPlugin() {
  const calls = { check: 0, handler: 0 };
  const plugin = definePlugin({
    manifest: {
      id: 'eco',
      version: '1.0.0',
      sdk: '^2.1.0',
      title: 'Eco',
      routes: [
        {
          id: 'escribir',
          method: 'POST',
          path: '/eco',
          permission: 'escribe',
          credits: 4,
          summary: 'De pago',
          requestSchema: { type: 'object', properties: { valido: { type: 'boolean' } }, additionalProperties: false },
        },
      ],
    },
    setup: () => ({
      handlers: {
        escribir: () => {
          calls.handler++;
          return { ok: true };
        },
      },
      checks: {
        escribir: (req) => {
          calls.check++;
          if (req.body.valido !== true) throw invalidField('valido', 'Debe ser true.');
        },
      },
    }),
  });
  return { plugin, calls };
}

describe('plugin checks', () => {
  test('a refusal of the route is answered before the charge: nothing moves, and an empty pool does not turn it into 402', async (t) => {
    const { plugin, calls } = checkedPlugin();
    const h = await startTestHost(t, { plugins: [plugin], credits: 4 });
    const url = `/mod/eco/${h.spaceId}/eco`;
    const refused = await h.client.post(url, { json: { valido: false } });
    assert.deepEqual([refused.status, refused.body.detail[0].loc], [422, ['body', 'valido']]);
    assert.equal(calls.handler, 0, 'the handler never ran');
    assert.deepEqual(await movements(h), ['recarga4']);

    // The host's own checks come first: a read key and a body against the schema never reach the route's check.
    const checksBefore = calls.check;
    assert.equal((await h.client.post(url, { key: h.readKey, json: { valido: true } })).status, 403);
    assert.equal((await h.client.post(url, { json: { valido: 'sí' } })).status, 422);
    assert.equal(calls.check, checksBefore);

    assert.equal((await h.client.post(url, { json: { valido: true } })).status, 200);
    const emptyRefused = await h.client.post(url, { json: {} });
    assert.deepEqual([emptyRefused.status, emptyRefused.body.codigo], [422, 'validation_failed']);
    const emptySound = await h.client.post(url, { json: { valido: true } });
    assert.equal(emptySound.status, 402, 'a check cannot spare a sound request its credits');
    assert.equal(calls.handler, 1);
    assert.deepEqual(await movements(h), ['consumo-4', 'recarga4']);
  });

  test('checks for a route without credits disable the plugin, naming the route', async (t) => {
    const free = echoPlugin();
    const withChecks = {
      ...free,
      setup: async (scope: Parameters<typeof free.setup>[0]) => ({
        ...(await free.setup(scope)),
        checks: { escribir: () => undefined },
      }),
    };
    const h = await startTestHost(t, { plugins: [withChecks] });
    const health = await h.client.get('/health', { key: (await h.admin.issueOperatorCredential('ops')).token });
    assert.match(health.body.plugins[0].error, /PLUGIN_HANDLERS_MISMATCH.*checks.*escribir/);
  });
});

describe('questions', () => {
  const ask = (h: TestHost, json: Record<string, unknown>, headers: Record<string, string> = {}) =>
    h.client.post(`/rag/${h.spaceId}/conversations`, { json, headers });
  const unknownConversation = { pregunta: 'hola', conversacion: 'conv_noexiste' };

  test('an unknown conversation is a 404 that moves no credits, also with an Idempotency-Key', async (t) => {
    const h = await startTestHost(t, { credits: 5 });
    const refused = await ask(h, unknownConversation);
    assert.deepEqual(
      [refused.status, refused.body],
      [404, { detail: 'Conversación no encontrada en este espacio.', codigo: 'not_found' }],
    );
    const live = await h.client.post(`/rag/${h.spaceId}/conversations/stream`, { json: unknownConversation });
    assert.deepEqual([live.status, live.body.codigo], [404, 'not_found']);
    // The key held for the refused request is let go: its retry is refused the same way, not held up.
    const keyed = { 'idempotency-key': 'conversacion-inexistente' };
    assert.equal((await ask(h, unknownConversation, keyed)).status, 404);
    assert.equal((await ask(h, unknownConversation, keyed)).status, 404);
    assert.equal((await ask(h, { pregunta: '   ' })).status, 422);
    assert.deepEqual(await movements(h), ['recarga5']);
  });

  test('on an empty pool a question refused by the route keeps its own status; a sound one is 402', async (t) => {
    const h = await startTestHost(t, { credits: 0 });
    assert.equal((await ask(h, unknownConversation)).status, 404);
    const live = await h.client.post(`/rag/${h.spaceId}/conversations/stream`, { json: unknownConversation });
    assert.equal(live.status, 404);
    assert.equal((await ask(h, { pregunta: '   ' })).status, 422);
    const streamWithKey = await h.client.post('/v1/chat/completions', {
      headers: { 'idempotency-key': 'flujo' },
      json: { model: h.spaceId, messages: [{ role: 'user', content: 'hola' }], stream: true },
    });
    assert.deepEqual([streamWithKey.status, streamWithKey.body.codigo], [400, 'idempotency_not_supported']);
    const noQuestion = await h.client.post('/v1/chat/completions', {
      json: { model: h.spaceId, messages: [{ role: 'assistant', content: 'hola' }] },
    });
    assert.equal(noQuestion.status, 422);
    assert.equal((await ask(h, { pregunta: 'hola' })).status, 402);
    assert.deepEqual(await movements(h), []);
  });
});

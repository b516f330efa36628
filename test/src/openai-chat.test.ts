import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

async function withGuide(t: { after(fn: () => unknown): void }, credits = 100): Promise<TestHost> {
  const h = await startTestHost(t, { credits });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, h.spaceId);
  return h;
}

/** The official client, pointed at Cerebro the way a tool that speaks OpenAI's API would be. */
const openai = (h: TestHost, key = h.readKey) => new OpenAI({ baseURL: `${h.url}/api/v1`, apiKey: key, maxRetries: 0 });

/** Cerebro's extension of an answer (`cerebro`), which the OpenAI client passes through untyped. */
interface WithCerebro {
  cerebro: {
    encontrada: boolean;
    fuentes: { documento: string }[];
    cache: boolean;
    creditos: number;
    conversacion: string;
  };
}

test('the official openai client lists the spaces as models and asks one, with sources in the extension', async (t) => {
  const h = await withGuide(t);
  const client = openai(h);
  const models = await client.models.list();
  assert.deepEqual(
    models.data.map((m) => [m.id, m.object]),
    [[h.spaceId, 'model']],
  );
  const balance = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
  const before = await balance();

  const completion = await client.chat.completions.create({
    model: h.spaceId,
    messages: [
      { role: 'system', content: 'Eres un asistente.' },
      { role: 'user', content: '¿Cómo actualizo el sistema?' },
    ],
    temperature: 0.2,
  });
  assert.equal(completion.object, 'chat.completion');
  assert.equal(completion.model, h.spaceId);
  assert.equal(completion.choices[0]!.message.role, 'assistant');
  assert.match(completion.choices[0]!.message.content ?? '', /apt update/);
  assert.equal(completion.choices[0]!.finish_reason, 'stop');
  const extension = (completion as unknown as WithCerebro).cerebro;
  assert.equal(extension.encontrada, true);
  assert.equal(extension.fuentes[0]!.documento, 'guia.md');
  assert.deepEqual([extension.cache, extension.creditos, await balance()], [false, 1, before - 1]);

  // The same question again comes from the answer cache, free, as on the contract's route.
  const again = await client.chat.completions.create({
    model: h.spaceId,
    messages: [{ role: 'user', content: '¿Cómo actualizo el sistema?' }],
  });
  assert.equal(again.choices[0]!.message.content, completion.choices[0]!.message.content);
  const againExt = (again as unknown as WithCerebro).cerebro;
  assert.deepEqual([againExt.cache, againExt.creditos, await balance()], [true, 0, before - 1]);

  // Earlier messages become the history of a stored conversation (never served from the cache).
  const followUp = await client.chat.completions.create({
    model: h.spaceId,
    messages: [
      { role: 'user', content: '¿Cómo actualizo el sistema?' },
      { role: 'assistant', content: completion.choices[0]!.message.content ?? '' },
      { role: 'user', content: [{ type: 'text', text: '¿Y cómo actualizo el sistema?' }] },
    ],
  });
  const followExt = (followUp as unknown as WithCerebro).cerebro;
  assert.deepEqual([followExt.cache, followExt.creditos, await balance()], [false, 1, before - 2]);
  assert.match(followExt.conversacion, /^conv_/);
  assert.notEqual(followExt.conversacion, extension.conversacion);
});

test('streaming through the official client: chunks in order, the sources on the last, [DONE] ends it', async (t) => {
  const h = await withGuide(t);
  const stream = await openai(h).chat.completions.create({
    model: h.spaceId,
    messages: [{ role: 'user', content: '¿Cómo actualizo el sistema?' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  const finishes: (string | null)[] = [];
  let last: unknown;
  let usage: unknown;
  for await (const chunk of stream) {
    assert.equal(chunk.object, 'chat.completion.chunk');
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      text += choice.delta.content ?? '';
      finishes.push(choice.finish_reason);
      if (choice.finish_reason) last = chunk;
    }
  }
  assert.match(text, /apt update/);
  assert.equal(finishes.at(-1), 'stop');
  assert.equal(finishes.filter((f) => f !== null).length, 1);
  const extension = (last as WithCerebro).cerebro;
  assert.equal(extension.encontrada, true);
  assert.equal(extension.fuentes[0]!.documento, 'guia.md');
  assert.deepEqual(Object.keys(usage as object).sort(), ['completion_tokens', 'prompt_tokens', 'total_tokens']);

  // On the wire: unnamed `data:` events and the closing `[DONE]`.
  const raw = await fetch(`${h.url}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.readKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: h.spaceId,
      messages: [{ role: 'user', content: 'actualizar sistema' }],
      stream: true,
    }),
  });
  const body = await raw.text();
  assert.match(raw.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.ok(body.trimEnd().endsWith('data: [DONE]'), body);
  assert.ok(!/^event:/m.test(body));
});

test('errors reach the openai client with its error shape, and keep Cerebro\u2019s body', async (t) => {
  const h = await withGuide(t, 1);
  const client = openai(h);
  const unknownSpace = await client.chat.completions
    .create({ model: 'no-existe', messages: [{ role: 'user', content: 'hola' }] })
    .catch((e: unknown) => e);
  assert.ok(unknownSpace instanceof OpenAI.APIError);
  assert.ok([403, 404].includes(unknownSpace.status!), String(unknownSpace.status));

  const notUser = await client.chat.completions
    .create({ model: h.spaceId, messages: [{ role: 'assistant', content: 'hola' }] })
    .catch((e: unknown) => e);
  assert.ok(notUser instanceof OpenAI.UnprocessableEntityError);
  assert.match(notUser.message, /messages\.0: El último mensaje debe ser del usuario/);

  const badKey = await openai(h, 'crb_nada.nada')
    .models.list()
    .catch((e: unknown) => e);
  assert.ok(badKey instanceof OpenAI.AuthenticationError);

  // One credit: the first question spends it, the second finds the pool empty (402, OpenAI's insufficient_quota).
  await client.chat.completions.create({
    model: h.spaceId,
    messages: [{ role: 'user', content: '¿Cómo actualizo el sistema?' }],
  });
  const raw = await h.client.post('/v1/chat/completions', {
    key: h.readKey,
    json: { model: h.spaceId, messages: [{ role: 'user', content: '¿Qué es un paquete?' }] },
  });
  assert.equal(raw.status, 402);
  assert.equal(typeof raw.body.detail, 'string');
  assert.equal(raw.body.error.type, 'insufficient_quota');
  assert.equal(raw.body.error.code, raw.body.codigo);
  assert.equal(raw.body.error.message, raw.body.detail);
});

test('idempotency: a retried chat completion is answered once and paid once; a stream refuses the key', async (t) => {
  const h = await withGuide(t);
  const balance = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
  const before = await balance();
  const post = (stream: boolean) =>
    h.client.post('/v1/chat/completions', {
      key: h.readKey,
      headers: { 'idempotency-key': 'reintento-1' },
      json: { model: h.spaceId, messages: [{ role: 'user', content: '¿Qué instala apt?' }], stream },
    });
  const first = await post(false);
  const second = await post(false);
  assert.equal(first.status, 200);
  assert.equal(second.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(second.body, first.body);
  assert.equal(await balance(), before - first.body.cerebro.creditos);
  const streamed = await h.client.post('/v1/chat/completions', {
    key: h.readKey,
    headers: { 'idempotency-key': 'reintento-2' },
    json: { model: h.spaceId, messages: [{ role: 'user', content: '¿Qué instala apt?' }], stream: true },
  });
  assert.equal(streamed.status, 400);
  assert.equal(streamed.body.codigo, 'idempotency_not_supported');
});

// A person of the shop replies into a conversation handed off to them (Studio, issue #14).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startShop } from './test-support.js';

test('a person replies into a handed-off conversation: stored as rol "persona", visible in the conversation, free; 409 while the agent has it', async (t) => {
  const { h, ventas: base, chat } = await startShop(t);
  const c = chat();
  await c.say('hola');
  const reply = (texto: unknown, key?: string) =>
    h.client.post(`${base}/conversaciones/${c.id}/mensajes`, { json: { texto }, ...(key ? { key } : {}) });

  const early = await reply('Hola, soy Marta de la tienda');
  assert.equal(early.status, 409, 'the agent is handling it');
  assert.equal(early.body.codigo, 'conflict');
  assert.match(early.body.detail, /derivada/);

  await c.say('me pasas con un asesor humano por favor');
  const balance = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
  const before = await balance();
  const sent = await reply('  Hola, soy Marta de la tienda. ¿En qué te ayudo?  ');
  assert.equal(sent.status, 201, sent.text);
  assert.equal(sent.body.conversacion, c.id);
  assert.equal(sent.body.rol, 'persona');
  assert.equal(sent.body.texto, 'Hola, soy Marta de la tienda. ¿En qué te ayudo?');
  assert.equal(sent.body.tipo, null);
  assert.ok(!Number.isNaN(Date.parse(sent.body.fecha)));
  assert.equal(await balance(), before, "a person's reply costs no credits");

  const silent = await c.say('gracias, quiero unas zapatillas');
  assert.equal(silent.respuesta, null, 'the agent stays silent after the person writes');
  const conversation = (await h.client.get(`${base}/conversaciones/${c.id}`)).body;
  assert.deepEqual(
    conversation.mensajes.map((m: { rol: string }) => m.rol),
    ['cliente', 'agente', 'cliente', 'agente', 'persona', 'cliente'],
  );
  assert.equal(conversation.mensajes[4].texto, 'Hola, soy Marta de la tienda. ¿En qué te ayudo?');
  assert.equal(conversation.num_mensajes, 6);
  assert.equal(conversation.estado, 'derivada');

  assert.equal((await reply('   ')).status, 422, 'only blanks');
  assert.equal((await reply('x'.repeat(2001))).status, 422);
  assert.equal(
    (await h.client.post(`${base}/conversaciones/${c.id}/mensajes`, { json: { texto: 'hola', rol: 'agente' } })).status,
    422,
    'unknown field',
  );
  assert.equal((await reply('hola', h.readKey)).status, 403, 'writing needs escribe');
  assert.equal(
    (await h.client.post(`${base}/conversaciones/conv_nope/mensajes`, { json: { texto: 'hola' } })).status,
    404,
  );

  await h.client.post(`${base}/conversaciones/${c.id}/reanudar`);
  assert.equal((await reply('¿sigues ahí?')).status, 409, 'handed back to the agent: no more person replies');
});

test('replies sent at once into one conversation are all stored, each with its own place in the transcript', async (t) => {
  const { h, ventas: base, chat } = await startShop(t);
  const c = chat();
  await c.say('hola');
  await c.say('me pasas con un asesor humano por favor');
  const texts = ['Hola, soy Marta.', 'Te escribo en un momento.', 'Ya tengo tu pedido.', '¿Algo más?'];
  const sent = await Promise.all(
    texts.map((texto) => h.client.post(`${base}/conversaciones/${c.id}/mensajes`, { json: { texto } })),
  );
  assert.deepEqual(
    sent.map((r) => r.status),
    texts.map(() => 201),
    sent.map((r) => r.text).join('\n'),
  );
  const conversation = (await h.client.get(`${base}/conversaciones/${c.id}`)).body;
  const persona = conversation.mensajes.filter((m: { rol: string }) => m.rol === 'persona');
  assert.deepEqual(persona.map((m: { texto: string }) => m.texto).sort(), [...texts].sort());
  assert.equal(conversation.num_mensajes, 4 + texts.length);
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Retriever } from '../index/retriever.js';
import { startChatServer, type ChatServer } from '../testing/fake-chat-server.js';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { GenerativeAnswerer } from './generative.js';
import { ChatClientError, OpenAiChatClient } from './openai-client.js';
import type { AnswerEvent } from './types.js';

let server: ChatServer;
before(async () => {
  server = await startChatServer();
});
after(() => server.close());

async function setup(apiKey = 'sk-prueba') {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'tienda', 'politicas.pdf', [
    { page: 3, text: 'Los clientes pueden devolver un producto en un plazo de 30 días desde la compra.' },
    { page: 5, text: 'El envío es gratuito a partir de 50 euros.' },
  ]);
  const client = new OpenAiChatClient({ baseUrl: server.baseUrl, model: 'modelo-local', apiKey });
  return new GenerativeAnswerer(index, new Retriever(index), client);
}

test('generates from the retrieved passages and returns the common answer shape with cited sources', async () => {
  server.status = 200;
  server.requests.length = 0;
  server.reply = () => 'Puedes devolverlo en 30 días [1].';
  const answer = await (await setup()).answer({
    space: 'tienda',
    question: '¿En cuántos días puedo devolver un producto?',
    options: { instructions: 'Eres Ana, de la tienda.' },
  });
  assert.equal(answer.found, true);
  assert.equal(answer.engine, 'generative');
  assert.equal(answer.model, 'modelo-local');
  assert.equal(answer.text, 'Puedes devolverlo en 30 días [1].');
  assert.equal(answer.sources.length, 1);
  assert.equal(answer.sources[0]?.page, 3);
  assert.equal(answer.usage.promptTokens, 100);
  assert.equal(answer.usage.completionTokens, 7);

  const [req] = server.requests;
  assert.equal(req?.headers.authorization, 'Bearer sk-prueba');
  assert.equal(req?.body.model, 'modelo-local');
  assert.match(req!.body.messages[0]!.content, /Eres Ana/);
  assert.match(req!.body.messages[0]!.content, /SOLO la información/);
  assert.match(req!.body.messages.at(-1)!.content, /\[1\] politicas\.pdf, página 3\nLos clientes pueden devolver/);
});

test('streams text deltas, then sources, then the final answer', async () => {
  server.status = 200;
  server.reply = () => 'El plazo es de 30 días desde la compra [1].';
  const events: AnswerEvent[] = [];
  for await (const e of (await setup()).stream({ space: 'tienda', question: 'plazo para devolver un producto' }))
    events.push(e);
  const deltas = events.flatMap((e) => (e.type === 'delta' ? [e.text] : []));
  assert.ok(deltas.length > 3, 'several deltas');
  assert.equal(deltas.join(''), 'El plazo es de 30 días desde la compra [1].');
  assert.deepEqual(
    events.filter((e) => e.type === 'progress').map((e) => e.type === 'progress' && e.stage),
    ['retrieving', 'generating'],
  );
  const done = events.at(-1);
  assert.ok(done?.type === 'done' && done.answer.found && done.answer.usage.completionTokens === 7);
  assert.equal(server.requests.at(-1)?.body.stream, true);
});

test('never calls the model when no passage is relevant, and answers with the no-answer text', async () => {
  server.requests.length = 0;
  const answer = await (await setup()).answer({
    space: 'tienda',
    question: '¿Quién ganó el mundial de 1930?',
    options: { noAnswerText: 'No consta.' },
  });
  assert.equal(answer.found, false);
  assert.equal(answer.text, 'No consta.');
  assert.deepEqual(answer.sources, []);
  assert.equal(server.requests.length, 0);
});

test('a model reply of the no-answer text is reported as not found', async () => {
  server.status = 200;
  server.reply = () => 'No encuentro esa información en los documentos disponibles.';
  const answer = await (await setup()).answer({ space: 'tienda', question: 'envío gratuito euros' });
  assert.equal(answer.found, false);
  assert.deepEqual(answer.sources, []);
});

test('an endpoint error becomes a ChatClientError with its status and without the key', async () => {
  server.status = 503;
  await assert.rejects(
    (await setup('sk-secreto')).answer({ space: 'tienda', question: 'envío gratuito euros' }),
    (err: unknown) => {
      assert.ok(err instanceof ChatClientError);
      assert.equal(err.status, 503);
      assert.match(err.message, /503.*sobrecargado/);
      assert.doesNotMatch(err.message, /sk-secreto/);
      return true;
    },
  );
  server.status = 200;
});

test('an unreachable endpoint is reported, not hung', async () => {
  const client = new OpenAiChatClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x', timeoutMs: 2000 });
  await assert.rejects(client.complete([{ role: 'user', content: 'hola' }]), ChatClientError);
});

test('fuentes: the passages the model cited first, then the other relevant ones offered, uncited, with their prompt numbers', async () => {
  server.status = 200;
  server.reply = () => 'Después de descargarlos quedan en la caché [2].';
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'e', 'guia.md', [
    { text: 'Los paquetes descargados se guardan en la caché de APT.', headings: ['Caché'] },
    { text: 'Para instalar un paquete descargado:\n```\n# dpkg -i paquete.deb\n```', headings: ['Instalar'] },
  ]);
  const answerer = new GenerativeAnswerer(
    index,
    new Retriever(index),
    new OpenAiChatClient({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
  );
  server.requests.length = 0;
  const answer = await answerer.answer({
    space: 'e',
    question: '¿Cómo instalo un paquete descargado?',
    options: { minRelevance: 0.01 },
  });
  assert.equal(answer.found, true);
  const prompt = server.requests[0]!.body.messages.at(-1)!.content;
  assert.match(prompt, /\[1\] guia\.md, Instalar\n[\s\S]*\[2\] guia\.md, Caché\n/);
  assert.match(prompt, /```\n# dpkg -i paquete\.deb\n```/, 'code reaches the model verbatim');
  assert.deepEqual(
    answer.sources.map((s) => [s.n, s.heading, s.cited]),
    [
      [2, 'Caché', true],
      [1, 'Instalar', false],
    ],
  );
});

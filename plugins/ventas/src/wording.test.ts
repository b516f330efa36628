// With an OpenAI-compatible endpoint configured, the agent's drafts are reworded by the model, and a
// rewording that invents a figure never reaches the lead (rule 4). The endpoint is a local HTTP server
// the test controls, standing in for a llama.cpp / vLLM / OpenAI server.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startShop } from './test-support.js';

interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
}

/** `reply` returning null answers 500, like an overloaded model server. */
async function chatServer(t: { after(fn: () => unknown): void }, reply: (req: ChatRequest) => string | null) {
  const seen: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const parsed = JSON.parse(body) as ChatRequest;
      seen.push(parsed);
      const content = reply(parsed);
      res.statusCode = content === null ? 500 : 200;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          content === null
            ? { error: { message: 'sobrecargado' } }
            : {
                choices: [{ message: { role: 'assistant', content } }],
                usage: { prompt_tokens: 1, completion_tokens: 1 },
              },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { seen, env: { CEREBRO_LLM_URL: url, CEREBRO_LLM_MODEL: 'prueba' } };
}

const draftOf = (req: ChatRequest) => req.messages[1].content.split('BORRADOR:\n')[1];

test('a rewording that keeps the figures is sent; it gets the brand persona as its description', async (t) => {
  const llm = await chatServer(t, (req) => `¡Claro que sí! ${draftOf(req)}`);
  const { chat } = await startShop(t, { env: llm.env });
  const res = await chat().say('¿cuánto cuesta la camiseta roja?');
  assert.equal(res.redaccion, 'externa');
  assert.match(res.respuesta, /^¡Claro que sí! El precio de la camiseta roja es 45\.000 COP\./);
  assert.equal(llm.seen.length, 1);
  assert.match(llm.seen[0].messages[0].content, /^Eres Sofía, asesora de ventas de Deportes Ruiz/);
  assert.equal(llm.seen[0].model, 'prueba');
});

test('regla 4: a rewording with an invented price is never sent; the checked draft goes instead', async (t) => {
  const llm = await chatServer(t, () => 'La camiseta roja está en oferta: 39.000 COP, un 15% menos.');
  const { chat } = await startShop(t, { env: llm.env, leadsConfig: { marca_activa: false } });
  const res = await chat().say('¿cuánto cuesta la camiseta roja?');
  assert.equal(res.redaccion, 'plantilla');
  assert.equal(res.respuesta, 'El precio de la camiseta roja es 45.000 COP.');
  assert.doesNotMatch(res.respuesta, /39\.000|15%/);
});

test('a failing model endpoint (500, or an empty text) still leaves the lead with the checked draft', async (t) => {
  let calls = 0;
  const llm = await chatServer(t, () => (calls++ === 0 ? null : ''));
  const { chat } = await startShop(t, { env: llm.env, leadsConfig: { marca_activa: false } });
  for (let i = 0; i < 2; i++) {
    const res = await chat().say('¿cuánto cuesta la camiseta roja?');
    assert.deepEqual([res.redaccion, res.respuesta], ['plantilla', 'El precio de la camiseta roja es 45.000 COP.']);
  }
  assert.equal(llm.seen.length, 2);
});

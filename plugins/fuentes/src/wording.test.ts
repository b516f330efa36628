// With a chat endpoint configured the values of a ficha are worded by it, still citing their passages; a model
// that says the passages do not hold the value leaves the field missing.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startLab, waitForIndexing, waitForRun } from './test-support.js';

/** Stands in for an OpenAI-compatible `/chat/completions` endpoint: answers by the field named in the prompt. */
async function chatEndpoint(
  t: { after(fn: () => unknown): void },
  reply: (prompt: string) => string,
): Promise<{ url: string; prompts: string[] }> {
  const prompts: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const prompt = (JSON.parse(body).messages as { content: string }[]).map((m) => m.content).join('\n');
      prompts.push(prompt);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { content: reply(prompt) } }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.after(() => new Promise((ok) => server.close(ok)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, prompts };
}

test('values worded by the chat model cite the passages it was given; "SIN_DATOS" leaves the field missing', async (t) => {
  const chat = await chatEndpoint(t, (prompt) =>
    /Campo: horario/.test(prompt) ? 'De lunes a viernes, de 9 a 18 h [1].' : 'SIN_DATOS',
  );
  const lab = await startLab(t, { env: { CEREBRO_LLM_URL: chat.url, CEREBRO_LLM_MODEL: 'prueba' } });
  const source = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: {
      tipo: 'lista',
      urls: [`${lab.site.url}/docs/soporte.html`, `${lab.site.url}/docs/precios.html`],
      lanzar: true,
    },
  });
  await waitForRun(lab, source.body.id);
  await waitForIndexing(lab);
  const posted = await lab.h.client.post(`${lab.base}/fichas`, {
    json: { tema: 'soporte', campos: ['horario', 'precio'] },
  });
  for (
    let i = 0;
    i < 400 &&
    ['en_cola', 'generando'].includes((await lab.h.client.get(`${lab.base}/fichas/${posted.body.id}`)).body.estado);
    i++
  )
    await new Promise((r) => setTimeout(r, 25));
  const detail = (
    await lab.h.client.get(`${lab.base}/fichas/${posted.body.id}/markdown`, { headers: { accept: 'application/json' } })
  ).body;
  const [horario, precio] = detail.campos;
  assert.deepEqual(
    [horario.valor, horario.redaccion, horario.encontrado],
    ['De lunes a viernes, de 9 a 18 h.', 'generativo', true],
  );
  assert.equal(new URL(detail.fuentes.find((f: any) => f.n === horario.citas[0]).url).pathname, '/docs/soporte.html');
  assert.deepEqual([precio.encontrado, precio.valor], [false, null], 'the model found no value in the passages');
  assert.match(chat.prompts[0]!, /lunes a viernes/, 'the supporting passages reach the model');
});

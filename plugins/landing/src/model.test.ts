// With an OpenAI-compatible chat endpoint: the model words the copy, refinar takes free text, an invented figure
// fails the version (refunded), and a version can be cancelled while the model is still writing. The endpoint is a
// local HTTP server the test controls, standing in for a llama.cpp / vLLM / OpenAI server.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { balance, base, createLanding, settled, SHOES, startShop } from './test-support.js';

interface ChatRequest {
  messages: { role: string; content: string }[];
}
type Reply = string | null | Promise<string | null>;

async function chatServer(t: { after(fn: () => unknown): void }, reply: (req: ChatRequest) => Reply) {
  const seen: ChatRequest[] = [];
  // `seen` holds only the landing's own calls (wording and refinement), not the Cerebro's.
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', async () => {
      const parsed = JSON.parse(body) as ChatRequest;
      // The Cerebro's own questions to the documents: answered with the first fragment, cited, as a model would.
      const documents = /^Fragmentos:\n\n\[1\][^\n]*\n([^\n]+)/.exec(parsed.messages.at(-1)?.content ?? '');
      if (!documents) seen.push(parsed);
      const content = documents ? `${documents[1]} [1]` : await reply(parsed);
      if (res.destroyed) return;
      res.statusCode = content === null ? 500 : 200;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          content === null
            ? { error: { message: 'sobrecargado' } }
            : { choices: [{ message: { role: 'assistant', content } }] },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    seen,
    env: {
      CEREBRO_LLM_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      CEREBRO_LLM_MODEL: 'prueba',
    },
  };
}

/** Rewords the JSON it receives by prefixing each text, keeping every key. */
function rewording(prefix: string, extra = '') {
  return (req: ChatRequest): string => {
    const copy = JSON.parse(req.messages[1].content) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(copy))
      out[k] = Array.isArray(v) ? v.map((x) => `${prefix}${x}`) : `${prefix}${v}${k === 'subtitulo' ? extra : ''}`;
    return JSON.stringify(out);
  };
}

test('with a model the copy is worded by it, in the brand voice it is told, and prices still come from the catalog', async (t) => {
  const llm = await chatServer(t, rewording('✓ '));
  const h = await startShop(t, { env: llm.env, brand: true });
  const l = await createLanding(h, SHOES);
  assert.equal(l.estado, 'lista', JSON.stringify(l.versiones[0]));
  assert.equal(l.versiones[0].redaccion, 'modelo');
  assert.match(llm.seen[0].messages[0].content, /marca Deportes Ruiz, con tono formal/);
  const html = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
  assert.match(html, /<p>✓ /);
  assert.match(html, /289\.900 COP/);
});

test('a model that invents a figure fails the version with the figure named, keeping its facts; the credits come back', async (t) => {
  const llm = await chatServer(t, rewording('', ' Hoy con 30% de descuento: 199.900 COP.'));
  const h = await startShop(t, { env: llm.env });
  const before = await balance(h);
  const l = await createLanding(h, SHOES);
  assert.equal(l.estado, 'fallida');
  assert.match(l.versiones[0].motivo, /«30%?»|«199\.900 COP»/);
  assert.match(l.versiones[0].motivo, /199\.900 COP/);
  assert.ok(l.versiones[0].hechos.documentos.length > 0, 'the failed version keeps the facts it was built from');
  assert.equal(await balance(h), before);
  assert.equal((await h.client.get(`${base(h)}/${l.id}/html`)).status, 409);
});

test('a failing model leaves the template copy, with a warning', async (t) => {
  const llm = await chatServer(t, () => null);
  const h = await startShop(t, { env: llm.env });
  const l = await createLanding(h, SHOES);
  assert.deepEqual([l.estado, l.versiones[0].redaccion], ['lista', 'plantilla']);
  assert.ok(l.versiones[0].avisos.some((a: string) => /plantilla/.test(a)));
});

test('refinar with a model takes free text, translated into the documented instructions', async (t) => {
  const llm = await chatServer(t, (req) =>
    req.messages[0].content.startsWith('Traduces') ? 'tema: verde\nquita preguntas_frecuentes' : rewording('')(req),
  );
  const h = await startShop(t, { env: llm.env });
  const l = await createLanding(h, SHOES);
  const res = await h.client.post(`${base(h)}/${l.id}/refinar`, {
    json: { instrucciones: 'Quiero algo más natural, en tonos de bosque y sin la parte de dudas' },
  });
  assert.equal(res.status, 202, res.text);
  const v2 = await settled(h, l.id);
  assert.deepEqual(
    [v2.versiones[1].estado, v2.versiones[1].tema_color],
    ['lista', 'verde'],
    JSON.stringify(v2.versiones[1]),
  );
  assert.ok(!v2.versiones[1].secciones.includes('preguntas_frecuentes'));
});

test('cancelar during generation: the version ends cancelada, its credits come back, and the late model answer changes nothing', async (t) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const llm = await chatServer(t, async (req) => {
    await held;
    return rewording('')(req);
  });
  const h = await startShop(t, { env: llm.env });
  const before = await balance(h);
  const created = await h.client.post(base(h), { json: SHOES });
  assert.equal(created.status, 202);
  assert.equal(await balance(h), before - 2);
  // Wait until the model is writing: the version is then really in progress.
  for (let i = 0; i < 400 && llm.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(llm.seen.length, 1);
  const cancelled = await h.client.post(`${base(h)}/${created.body.id}/cancelar`);
  assert.equal(cancelled.status, 200);
  assert.deepEqual([cancelled.body.estado, cancelled.body.versiones[0].estado], ['cancelada', 'cancelada']);
  release();
  await new Promise((r) => setTimeout(r, 200));
  const after = (await h.client.get(`${base(h)}/${created.body.id}`)).body;
  assert.equal(after.versiones[0].estado, 'cancelada');
  assert.equal(await balance(h), before);
  assert.equal((await h.client.post(`${base(h)}/${created.body.id}/cancelar`)).status, 409);
  const movements = (await h.client.get(`/cuentas/${h.accountId}/bolsa?movimientos=5`)).body.movimientos;
  assert.equal(movements[0].motivo, 'reembolso');
  assert.equal(movements[0].ruta, 'POST /mod/landing/:espacio/landings');
});

test('DELETE during generation cancels the version and refunds it before deleting', async (t) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const llm = await chatServer(t, async (req) => {
    await held;
    return rewording('')(req);
  });
  const h = await startShop(t, { env: llm.env, documents: false });
  const before = await balance(h);
  const created = await h.client.post(base(h), { json: SHOES });
  assert.equal(created.status, 202);
  for (let i = 0; i < 400 && llm.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal((await h.client.delete(`${base(h)}/${created.body.id}`)).status, 204);
  release();
  await new Promise((r) => setTimeout(r, 200));
  assert.equal((await h.client.get(`${base(h)}/${created.body.id}`)).status, 404);
  assert.equal(await balance(h), before);
});

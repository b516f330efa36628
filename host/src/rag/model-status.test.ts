import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelStatus, shownAddress, type ModelsConfig } from './model-status.js';
import type { LocalModelStanding } from './search-models.js';

const NONE: ModelsConfig = {
  embeddingModelDir: '',
  embeddingUrl: '',
  embeddingModel: '',
  embeddingApiKey: '',
  rerankModelDir: '',
  rerankUrl: '',
  rerankModel: '',
  rerankApiKey: '',
  llmUrl: '',
  llmModel: '',
  llmApiKey: '',
};

const standing = (
  embeddings: LocalModelStanding = 'sin_configurar',
  reordenacion: LocalModelStanding = 'sin_configurar',
) => ({
  standing: () => ({ embeddings, reordenacion }),
});

/** An OpenAI-compatible server answering GET /v1/models: 200 with the right key, 401 otherwise. */
async function endpoint(t: { after(fn: () => unknown): void }) {
  const seen: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization, req.url);
    if (!req.url?.startsWith('/v1/models')) return res.writeHead(404).end();
    res.writeHead(req.headers.authorization === 'Bearer buena' ? 200 : 401, { 'content-type': 'application/json' });
    res.end('{"data":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

test('nothing configured: full text, first-stage order, extractive answers', async () => {
  const view = await new ModelStatus(NONE, standing(), () => 0).view();
  assert.deepEqual(
    [view.embeddings.estado, view.reordenacion.estado, view.respuestas.estado, view.respuestas.tipo],
    ['sin_configurar', 'sin_configurar', 'sin_configurar', null],
  );
  assert.match(view.respuestas.detalle, /modo extractivo/);
  assert.equal(view.comprobado, '1970-01-01T00:00:00.000Z');
});

test('a local model shows its directory name and how it stands, never the path', async () => {
  const config = {
    ...NONE,
    embeddingModelDir: '/srv/modelos/multilingual-e5-small',
    rerankModelDir: '/srv/x/bge-reranker',
  };
  const view = await new ModelStatus(config, standing('activo', 'no_cargado'), () => 0).view();
  assert.deepEqual(view.embeddings, {
    tipo: 'local',
    modelo: 'multilingual-e5-small',
    direccion: null,
    estado: 'activo',
    detalle: 'Cargado: las preguntas se buscan por texto y por significado.',
  });
  assert.equal(view.reordenacion.estado, 'no_cargado');
  assert.doesNotMatch(JSON.stringify(view), /\/srv/);
});

test('endpoints are asked for /models with their key: answers, refuses the key, or is down; keys never shown', async (t) => {
  const { url, seen } = await endpoint(t);
  const down = 'http://127.0.0.1:9/v1'; // discard port: nothing listens
  const config = {
    ...NONE,
    llmUrl: `${url}/?org=equipo`,
    llmModel: 'qwen2.5-7b-instruct',
    llmApiKey: 'buena',
    embeddingUrl: url,
    embeddingApiKey: 'mala',
    rerankUrl: down,
  };
  const view = await new ModelStatus(config, standing('activo', 'activo'), () => 0).view();
  assert.equal(view.respuestas.estado, 'responde');
  assert.equal(view.respuestas.modelo, 'qwen2.5-7b-instruct');
  assert.equal(view.respuestas.direccion, url, 'no query in the address shown');
  assert.equal(view.embeddings.estado, 'rechaza_la_clave');
  assert.equal(view.reordenacion.estado, 'no_responde');
  assert.ok(seen.includes('Bearer buena') && seen.includes('Bearer mala'));
  assert.ok(seen.includes('/v1/models?org=equipo'), 'the base address keeps its query');
  assert.doesNotMatch(JSON.stringify(view), /buena|mala|equipo/);
});

test('probes are cached for 30 s; an endpoint that answers but failed lately says it failed', async () => {
  let probes = 0;
  let now = 0;
  const status = new ModelStatus(
    { ...NONE, embeddingUrl: 'http://modelos.local/v1' },
    standing('fallando'),
    () => now,
    async () => {
      probes++;
      return 'responde';
    },
  );
  assert.equal((await status.view()).embeddings.estado, 'fallando');
  now = 29_000;
  await status.view();
  assert.equal(probes, 1);
  now = 30_000;
  await status.view();
  assert.equal(probes, 2);
});

test('addresses are shown without credentials, query or fragment', () => {
  assert.equal(shownAddress('https://u:p@api.ejemplo.com:8443/v1/?clave=x#y'), 'https://api.ejemplo.com:8443/v1');
  assert.equal(shownAddress('no es una url'), '(dirección no válida)');
});

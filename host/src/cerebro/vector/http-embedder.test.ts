import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CerebroEngine } from '../engine.js';
import { startModelServer, type ModelServer } from '../testing/fake-model-server.js';
import { migratedDb, tempDir } from '../testing/fixtures.js';
import { HttpEmbedder } from './http-embedder.js';

// Synonyms share a direction, as in a real embedding model.
const TABLE = { coche: [1, 0, 0], automovil: [1, 0, 0], perro: [0, 1, 0], mascota: [0, 1, 0] };

let server: ModelServer;
before(async () => {
  server = await startModelServer(TABLE, 3);
});
after(() => server.close());

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

test('an OpenAI-compatible embeddings endpoint gives unit vectors in input order, in batches, with prefixes', async () => {
  server.requests.length = 0;
  const embedder = await HttpEmbedder.connect({
    baseUrl: server.baseUrl,
    model: 'multilingual-e5-small',
    batch: 2,
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    apiKey: 'clave-secreta',
  });
  assert.equal(embedder.dimensions, 3);
  assert.equal(embedder.id, 'http:multilingual-e5-small:3');
  const [coche, perro, automovil] = await embedder.embed(['coche', 'perro', 'automóvil'], 'passage');
  assert.ok(Math.abs(cosine(coche!, coche!) - 1) < 1e-5);
  assert.ok(cosine(coche!, automovil!) > 0.99);
  assert.ok(cosine(coche!, perro!) < 0.01);
  assert.deepEqual(
    server.requests.map((r) => (r.body.input as string[]).length),
    [1, 2, 1],
  );
  assert.deepEqual(server.requests[0]!.body.input, ['passage: prueba']);
  await embedder.embed(['coche'], 'query');
  assert.deepEqual(server.requests.at(-1)!.body.input, ['query: coche']);
  assert.deepEqual(server.requests[1]!.body.input, ['passage: coche', 'passage: perro']);
  assert.equal(server.requests[1]!.body.model, 'multilingual-e5-small');
});

test('an endpoint that is down or answers an error is a clear error at connection time', async () => {
  await assert.rejects(
    HttpEmbedder.connect({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x', timeoutMs: 2_000 }),
    /no responde/,
  );
  server.status = 500;
  try {
    await assert.rejects(HttpEmbedder.connect({ baseUrl: server.baseUrl, model: 'x' }), /respondió 500/);
  } finally {
    server.status = 200;
  }
});

test('hybrid retrieval over the endpoint finds synonyms, and a question falls back to full text while it fails', async () => {
  const db = migratedDb();
  const outcomes: (string | null)[] = [];
  const engine = new CerebroEngine({
    db,
    embedder: await HttpEmbedder.connect({ baseUrl: server.baseUrl, model: 'm' }),
    onEmbedderOutcome: (f) => outcomes.push(f),
  });
  const dir = await tempDir();
  try {
    const path = await dir.file('a.txt', 'Mi perro duerme en casa.\n\nEl coche está en el garaje.');
    await engine.documents.submit('s', { name: 'a.txt', path, bytes: 50 });
    await engine.start();
    await engine.documents.idle();
    const [hit] = await engine.search('s', 'automóvil', 1);
    assert.match(hit!.text, /coche/);
    server.status = 503;
    const fallback = await engine.search('s', 'garaje', 1);
    assert.match(fallback[0]!.text, /garaje/);
    assert.match(outcomes.at(-1)!, /respondió 503/);
  } finally {
    server.status = 200;
    await engine.stop();
    await dir.cleanup();
  }
});

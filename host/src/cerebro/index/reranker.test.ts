import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { crossEncoderModel } from '../testing/onnx-model.js';
import { startModelServer, type ModelServer } from '../testing/fake-model-server.js';
import { migratedDb, tempDir, type TempDir } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { HttpReranker } from './rerank-http.js';
import { relevanceProbabilities } from './reranker.js';
import { OnnxReranker } from './rerank-onnx.js';
import { Retriever } from './retriever.js';

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'producto', 'envio', 'reembolso', 'se', 'el'];
const WEIGHTS: Record<string, number> = { reembolso: 2, envio: -1 };

let dir: TempDir;
let server: ModelServer;
before(async () => {
  dir = await tempDir();
  await dir.file('model.onnx', crossEncoderModel(VOCAB.map((t) => WEIGHTS[t] ?? 0)));
  await dir.file('vocab.txt', `${VOCAB.join('\n')}\n`);
  server = await startModelServer({}, 2);
});
after(async () => {
  await server.close();
  await dir.cleanup();
});

async function space() {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  // Full text prefers the first passage (the question's word three times); the reranker, the second.
  await seedDocument(db, index, 'tienda', 'a.md', [
    { text: 'producto producto producto: envío en 24 horas.' },
    { text: 'El producto se reembolsa: reembolso completo.' },
    { text: 'Horario de atención de lunes a viernes.' },
  ]);
  return index;
}

test('a local ONNX cross-encoder scores question-passage pairs with its own head', async () => {
  const reranker = await OnnxReranker.load(dir.path);
  const [envio, reembolso] = await reranker.score(
    'producto',
    ['producto envío', 'producto reembolso'],
    AbortSignal.timeout(5_000),
  );
  assert.ok(reembolso! > 0.8 && envio! < 0.5, `${reembolso} > ${envio}`);
});

test('a local cross-encoder runs one rescoring at a time: a second one meanwhile is refused, not queued', async () => {
  const reranker = await OnnxReranker.load(dir.path);
  const first = reranker.score('producto', ['producto envío', 'producto reembolso'], AbortSignal.timeout(5_000));
  await assert.rejects(reranker.score('producto', ['producto'], AbortSignal.timeout(5_000)), /ocupado/);
  assert.equal((await first).length, 2);
  assert.equal((await reranker.score('producto', ['producto'], AbortSignal.timeout(5_000))).length, 1);
});

test('a local cross-encoder refuses a question while busy before tokenising it (the refusal costs nothing)', async () => {
  const reranker = await OnnxReranker.load(dir.path);
  const first = reranker.score('producto', ['producto envío', 'producto reembolso'], AbortSignal.timeout(5_000));
  // Spy on the private tokenizer: the refused call must not encode a single pair.
  const tokenizer = (reranker as unknown as { tokenizer: { encode: (...args: unknown[]) => number[] } }).tokenizer;
  const encode = tokenizer.encode.bind(tokenizer);
  let encoded = 0;
  tokenizer.encode = (...args: unknown[]) => {
    encoded++;
    return encode(...args);
  };
  await assert.rejects(reranker.score('producto', ['producto '.repeat(200)], AbortSignal.timeout(5_000)), /ocupado/);
  assert.equal(encoded, 0);
  await first;
  await reranker.score('producto', ['producto'], AbortSignal.timeout(5_000));
  assert.equal(encoded, 2, 'once free, the question and its passage are encoded');
});

test('reranking reorders the top passages and keeps the rest after them', async () => {
  const index = await space();
  const plain = await new Retriever(index).retrieve('tienda', 'producto', 5);
  assert.match(plain.hits[0]!.text, /producto producto/);
  const reranker = await OnnxReranker.load(dir.path);
  const reranked = await new Retriever(index, null, { reranker, topN: 10, timeoutMs: 5_000 }).retrieve(
    'tienda',
    'producto',
    5,
  );
  assert.match(reranked.hits[0]!.text, /reembolso completo/);
  assert.deepEqual(
    reranked.hits.map((h) => h.rank),
    reranked.hits.map((_, i) => i + 1),
  );
  assert.equal(reranked.hits.length, plain.hits.length);
});

test('a reranker endpoint gets only the top N passages, in both response shapes', async () => {
  const reranker = new HttpReranker({ baseUrl: server.baseUrl, model: 'bge-reranker-v2-m3', timeoutMs: 5_000 });
  for (const shape of ['results', 'tei'] as const) {
    server.rerankShape = shape;
    assert.deepEqual(
      await reranker.score(
        'devolver producto',
        ['horario', 'devolver el producto', 'producto'],
        AbortSignal.timeout(5_000),
      ),
      [0, 1, 0.5],
    );
  }
  server.requests.length = 0;
  const outcomes: (string | null)[] = [];
  const retriever = new Retriever(await space(), null, {
    reranker,
    topN: 2,
    timeoutMs: 5_000,
    onOutcome: (f) => outcomes.push(f),
  });
  await retriever.retrieve('tienda', 'producto reembolso', 5);
  const [request] = server.requests;
  assert.equal((request!.body.documents as string[]).length, 2);
  assert.equal(request?.body.query, 'producto reembolso');
  assert.deepEqual(outcomes, [null]);
});

test('a failing or slow reranker leaves the first ranking and reports why; the question does not fail', async () => {
  const index = await space();
  const reranker = new HttpReranker({ baseUrl: server.baseUrl, model: '', timeoutMs: 5_000 });
  const outcomes: (string | null)[] = [];
  const settings = { reranker, topN: 10, timeoutMs: 10_000, onOutcome: (f: string | null) => outcomes.push(f) };
  const plain = (await new Retriever(index).retrieve('tienda', 'producto', 5)).hits.map((h) => h.id);
  try {
    server.status = 503;
    assert.deepEqual(
      (await new Retriever(index, null, settings).retrieve('tienda', 'producto', 5)).hits.map((h) => h.id),
      plain,
    );
    server.status = 200;
    server.delayMs = 5_000;
    const impatient = new Retriever(index, null, { ...settings, timeoutMs: 200 });
    assert.deepEqual(
      (await impatient.retrieve('tienda', 'producto', 5)).hits.map((h) => h.id),
      plain,
    );
  } finally {
    server.status = 200;
    server.delayMs = 0;
  }
  assert.match(outcomes[0]!, /respondió 503/);
  assert.match(outcomes[1]!, /tiempo agotado \(200 ms\)/);
});

test('reranker scores become relevance probabilities: kept when all are within 0–1, read as logits otherwise', async () => {
  assert.deepEqual(relevanceProbabilities([0.2, 0.9, 1]), [0.2, 0.9, 1]);
  const [low, zero, high] = relevanceProbabilities([-3, 0, 4]);
  assert.ok(Math.abs(low! - 0.0474) < 1e-3 && zero === 0.5 && Math.abs(high! - 0.982) < 1e-3);
});

test('a reranker that answered leaves its probability per rescored passage for the relevance decision', async () => {
  const reranker = await OnnxReranker.load(dir.path);
  const retrieval = await new Retriever(await space(), null, { reranker, topN: 2, timeoutMs: 5_000 }).retrieve(
    'tienda',
    'producto',
    5,
  );
  const judged = retrieval.judgement?.rerank;
  assert.equal(judged?.size, 2);
  assert.ok(judged.get(retrieval.hits[0]!.id)! > 0.8, 'the reembolso passage: logit 2');
  assert.ok(judged.get(retrieval.hits[1]!.id)! < 0.3, 'the envío passage: logit -1');
  const one = await new Retriever(await space(), null, { reranker, topN: 1, timeoutMs: 5_000 }).retrieve(
    'tienda',
    'producto',
    5,
  );
  assert.equal(one.judgement?.rerank?.get(one.hits[1]!.id), undefined, 'beyond topN: not judged by the model');
  assert.equal((await new Retriever(await space()).retrieve('tienda', 'producto', 5)).judgement, null);
});

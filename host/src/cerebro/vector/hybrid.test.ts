import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Retriever } from '../index/retriever.js';
import { foldAccents, words } from '../text/analyzer.js';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import type { Embedder } from './embedder.js';
import { SqliteVectorRepositories } from '../../storage/sqlite/vector-repository.js';

/**
 * A test embedder with a hand-made semantic space: synonyms share a dimension. It stands in for a real model so
 * the fusion logic can be checked on known similarities.
 */
const CONCEPTS: Record<string, number> = {
  coche: 0,
  automovil: 0,
  vehiculo: 0,
  perro: 1,
  mascota: 1,
  can: 1,
  factura: 2,
  recibo: 2,
  pago: 2,
  lluvia: 3,
  clima: 3,
};
const conceptEmbedder: Embedder = {
  id: 'conceptos-prueba',
  dimensions: 4,
  async embed(texts) {
    return texts.map((t) => {
      const v = new Float32Array(4);
      for (const w of words(t)) {
        const d = CONCEPTS[foldAccents(w)];
        if (d !== undefined) v[d]! += 1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  },
};

async function setup() {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const store = new SqliteVectorRepositories(db).forDimensions(conceptEmbedder.dimensions);
  const put = async (space: string, name: string, texts: string[]) => {
    const { passageIds } = await seedDocument(
      db,
      index,
      space,
      name,
      texts.map((text) => ({ text })),
    );
    await store.put(space, passageIds, await conceptEmbedder.embed(texts, 'passage'));
  };
  await put('a', 'garaje.md', [
    'El coche rojo está en el garaje.',
    'La factura del taller llegó ayer.',
    'El perro duerme en la cocina.',
  ]);
  await put('b', 'ajeno.md', ['Otro automóvil de otra empresa.']);
  return { index, store, put };
}

test('vectors find what words miss, and reciprocal rank fusion keeps lexical matches too', async () => {
  const { index, store } = await setup();
  const bm25 = new Retriever(index);
  const hybrid = new Retriever(index, { embedder: conceptEmbedder, store });
  assert.equal((await bm25.retrieve('a', '¿dónde está el automóvil?', 3)).hits.length, 0);
  const found = await hybrid.retrieve('a', '¿dónde está el automóvil?', 3);
  assert.equal(found.mode, 'hybrid');
  assert.match(found.hits[0]!.text, /coche rojo/);
  const both = await hybrid.retrieve('a', 'recibo del taller', 3);
  assert.match(both.hits[0]!.text, /factura del taller/, 'matched by words and by meaning: first');
  assert.ok(both.hits[0]!.score > both.hits[1]!.score);
});

test('vector search is partitioned by space', async () => {
  const { index, store } = await setup();
  const hybrid = new Retriever(index, { embedder: conceptEmbedder, store });
  const hits = (await hybrid.retrieve('a', 'automóvil vehículo', 5)).hits;
  assert.ok(hits.every((h) => h.documentName === 'garaje.md'));
  const [q] = await conceptEmbedder.embed(['automóvil'], 'query');
  assert.deepEqual((await store.nearest('b', q!, 5)).length, 1);
  assert.equal((await store.nearest('nadie', q!, 5)).length, 0);
});

test('deleted vectors are gone', async () => {
  const { store } = await setup();
  const [q] = await conceptEmbedder.embed(['automóvil'], 'query');
  const ids = (await store.nearest('b', q!, 5)).map((h) => h.id);
  await store.delete(ids);
  assert.equal((await store.nearest('b', q!, 5)).length, 0);
});

test('the engine embeds passages while indexing, and re-indexes documents when the embedding model changes', async () => {
  const { CerebroEngine } = await import('../engine.js');
  const { tempDir } = await import('../testing/fixtures.js');
  const dir = await tempDir();
  const db = migratedDb();
  try {
    const engine = new CerebroEngine({ db, embedder: conceptEmbedder });
    await engine.start();
    await engine.documents.submit('a', {
      name: 'nota.txt',
      path: await dir.file('nota.txt', 'El coche rojo está en el garaje.'),
      bytes: 32,
    });
    await engine.documents.idle();
    const hits = await engine.search('a', 'automóvil', 3);
    assert.match(hits[0]!.text, /coche rojo/);
    await engine.stop();

    const renamed: Embedder = { ...conceptEmbedder, id: 'conceptos-prueba-v2' };
    const again = new CerebroEngine({ db, embedder: renamed });
    assert.deepEqual(await again.start(), { requeued: 1, failed: 0 });
    await again.documents.idle();
    assert.match((await again.search('a', 'vehículo', 3))[0]!.text, /coche rojo/);
    assert.equal((await again.documents.status('a')).documents[0]?.state, 'ready');
    // The first version's passages and vectors were purged: one vector per stored passage, nothing hidden.
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    assert.equal(count('SELECT count(*) FROM cerebro_hidden_passages'), 0);
    assert.equal(count('SELECT count(*) FROM cerebro_vec_d4'), count('SELECT count(*) FROM cerebro_passages'));
    await again.stop();
  } finally {
    await dir.cleanup();
  }
});

test('with embeddings, a question word close in meaning to a passage counts for answer-or-decline', async () => {
  const { ExtractiveAnswerer } = await import('../answer/extractive.js');
  const { index, store } = await setup();
  const ask = (retriever: Retriever, question: string) =>
    new ExtractiveAnswerer(index, retriever).answer({ space: 'a', question });
  const hybrid = new Retriever(index, { embedder: conceptEmbedder, store });
  const synonym = await ask(hybrid, '¿Dónde está el automóvil?');
  assert.equal(synonym.found, true);
  assert.match(synonym.text, /coche rojo/);
  // Unrelated: neither the words nor their meaning are in any passage.
  assert.equal((await ask(hybrid, '¿Cuánto cuesta el billete de avión?')).found, false);
  // Without embeddings the synonym is declined, as it always was.
  assert.equal((await ask(new Retriever(index), '¿Dónde está el automóvil?')).found, false);
  // The similarity threshold is configurable: at 1.01 no word is ever close.
  assert.equal(
    (
      await ask(
        new Retriever(index, { embedder: conceptEmbedder, store, minWordSimilarity: 1.01 }),
        '¿Dónde está el automóvil?',
      )
    ).found,
    false,
  );
});

test('a word close in meaning is credited to the unit that says it, not to every unit of its passage', async () => {
  const { ExtractiveAnswerer } = await import('../answer/extractive.js');
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const store = new SqliteVectorRepositories(db).forDimensions(conceptEmbedder.dimensions);
  // One passage, two sentences: only the first is about the car. Its vector is close to "automóvil".
  const text =
    'El coche rojo está aparcado en el garaje de la casa.\n\nLa factura del garaje de la casa llegó ayer por correo.';
  const { passageIds } = await seedDocument(db, index, 'a', 'casa.md', [{ text }]);
  await store.put('a', passageIds, await conceptEmbedder.embed([text], 'passage'));
  // The passage's vector mixes two concepts (cosine 0.71 with "automóvil"), each sentence's holds one.
  const answerer = new ExtractiveAnswerer(
    index,
    new Retriever(index, { embedder: conceptEmbedder, store, minWordSimilarity: 0.7 }),
  );
  const answer = await answerer.answer({ space: 'a', question: '¿Dónde está el automóvil en la casa?' });
  assert.equal(answer.found, true);
  assert.match(answer.text, /coche rojo/);
  assert.doesNotMatch(answer.text, /factura/, 'the invoice sentence does not say anything close to "automóvil"');
});

test('a narrowed hybrid retrieval draws from the scope documents only, by words and by meaning', async () => {
  const { index, store, put } = await setup();
  await put('a', 'flota.md', ['El vehículo de reparto tiene la factura pendiente.', 'Un automóvil nuevo en la flota.']);
  const hybrid = new Retriever(index, { embedder: conceptEmbedder, store });
  const whole = await hybrid.retrieve('a', '¿dónde está el automóvil?', 5);
  assert.ok(whole.hits.some((h) => h.documentName === 'flota.md'));
  const garage = (await index.passage('a', whole.hits.find((h) => h.documentName === 'garaje.md')!.id))!.documentId;
  const narrowed = await hybrid.retrieve('a', '¿dónde está el automóvil?', 5, new Set([garage]));
  assert.equal(narrowed.mode, 'hybrid');
  assert.ok(narrowed.hits.length > 0);
  assert.ok(narrowed.hits.every((h) => h.documentName === 'garaje.md'));
  assert.match(narrowed.hits[0]!.text, /coche rojo/, 'found by meaning inside the scope');
});

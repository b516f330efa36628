import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Reranker } from '../index/reranker.js';
import { Retriever } from '../index/retriever.js';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { ExtractiveAnswerer } from './extractive.js';
import { DEFAULT_RERANK_MIN_PROBABILITY, rerankRelevance } from './relevance.js';
import { DEFAULT_ANSWER_OPTIONS } from './types.js';

test('a reranker probability maps onto the calibrated scale: its own threshold lands on the default relevancia_minima', async () => {
  const calibrated = DEFAULT_ANSWER_OPTIONS.minRelevance;
  assert.equal(rerankRelevance(DEFAULT_RERANK_MIN_PROBABILITY), calibrated);
  assert.equal(rerankRelevance(0), 0);
  assert.equal(rerankRelevance(1), 1);
  assert.equal(rerankRelevance(0.7, 0.7), calibrated, 'a configured model threshold also lands on the default');
  // Increasing, so a client raising relevancia_minima is stricter with the model too.
  const grid = Array.from({ length: 21 }, (_, i) => rerankRelevance(i / 20));
  assert.ok(
    grid.every((v, i) => i === 0 || v > grid[i - 1]!),
    grid.join(' '),
  );
  assert.ok(rerankRelevance(0.48) < calibrated, 'a passage the model calls irrelevant stays under the default');
});

/** A reranker that gives every passage one fixed probability. */
const fixedReranker = (probability: number): Reranker => ({
  id: `fixed-${probability}`,
  score: async (_q, passages) => passages.map(() => probability),
});

async function answererWith(probability: number, minProbability?: number) {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'tienda', 'politicas.md', [
    { text: 'Los clientes pueden devolver un producto en un plazo de 30 días desde la compra.' },
  ]);
  const rerank = {
    reranker: fixedReranker(probability),
    topN: 5,
    timeoutMs: 5_000,
    ...(minProbability !== undefined ? { minProbability } : {}),
  };
  return new ExtractiveAnswerer(index, new Retriever(index, null, rerank));
}

test('with a reranker, answer-or-decline follows the model threshold, not the lexical 0.45', async () => {
  const question = '¿En cuántos días puedo devolver un producto?';
  // 0.48 passes a lexical 0.45 but is below the model's 0.5: declined.
  assert.equal((await (await answererWith(0.48)).answer({ space: 'tienda', question })).found, false);
  assert.equal((await (await answererWith(0.55)).answer({ space: 'tienda', question })).found, true);
  // A stricter model threshold, and a stricter client, both decline the same passage.
  assert.equal((await (await answererWith(0.55, 0.6)).answer({ space: 'tienda', question })).found, false);
  assert.equal(
    (await (await answererWith(0.55)).answer({ space: 'tienda', question, options: { minRelevance: 0.9 } })).found,
    false,
  );
  assert.equal(
    (await (await answererWith(0.97)).answer({ space: 'tienda', question, options: { minRelevance: 0.9 } })).found,
    true,
  );
  // The source score is on the same scale the client set.
  const answer = await (await answererWith(0.55)).answer({ space: 'tienda', question });
  assert.equal(answer.sources[0]!.score, Math.round(rerankRelevance(0.55) * 1000) / 1000);
});

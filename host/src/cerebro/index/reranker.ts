// Reranking: a cross-encoder (local ONNX model or a `/rerank` endpoint) rescoring the question against each of the
// top passages. It is bounded — only the first `topN` passages, one time limit — and optional: when it fails or is
// too slow the first ranking stands, so a reranker can never make an answer fail.
import type { SearchHit } from './passage-index.js';

export interface Reranker {
  readonly id: string;
  /** One relevance score per passage (higher is more relevant), in input order. */
  score(query: string, passages: readonly string[], signal: AbortSignal): Promise<number[]>;
}

export interface RerankSettings {
  reranker: Reranker;
  /** Passages rescored per question (the rest keep their order after them). */
  topN: number;
  timeoutMs: number;
  /**
   * Probability at which a rescored passage counts as relevant (default 0.5; `CEREBRO_RERANK_MIN_PROBABILITY`). It is
   * mapped onto the calibrated `minRelevance` (answer/relevance.ts `rerankRelevance`), so `relevancia_minima`
   * keeps its meaning with a reranker.
   */
  minProbability?: number;
  /** Told of every outcome, for `GET /api/health` and the logs (the reason never quotes passages). */
  onOutcome?: (failure: string | null) => void;
}

const textOf = (hit: SearchHit): string =>
  hit.headings.length ? `${hit.headings.join(' › ')}\n${hit.text}` : hit.text;

export interface Reranked {
  hits: SearchHit[];
  /** The reranker's relevance probability (0–1) per passage id it rescored; null when it did not answer. */
  probabilities: Map<number, number> | null;
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * Reranker scores as relevance probabilities. Cross-encoders trained with binary cross-entropy (bge-reranker,
 * mmarco-mMiniLM, jina-reranker) give a logit whose sigmoid is the probability that the passage is relevant; `/rerank`
 * endpoints return it already applied (`relevance_score` of Jina/Cohere, TEI's default `score`) except some that
 * return the raw logit (llama.cpp). So a batch of scores all within 0–1 is read as probabilities, any other batch as
 * logits.
 */
export function relevanceProbabilities(scores: readonly number[]): number[] {
  return scores.every((s) => s >= 0 && s <= 1) ? [...scores] : scores.map(sigmoid);
}

/**
 * Reorders the first `topN` hits by the reranker's scores and returns their relevance probabilities; on failure or
 * timeout returns the hits unchanged (and no probabilities).
 */
export async function rerankHits(question: string, hits: SearchHit[], settings: RerankSettings): Promise<Reranked> {
  const head = hits.slice(0, settings.topN);
  if (head.length === 0) return { hits, probabilities: null };
  let scores: number[];
  try {
    scores = await settings.reranker.score(question, head.map(textOf), AbortSignal.timeout(settings.timeoutMs));
    if (scores.length !== head.length || !scores.every(Number.isFinite))
      throw new Error(`${scores.length} puntuaciones para ${head.length} pasajes`);
  } catch (err) {
    const reason =
      (err as Error).name === 'TimeoutError' ? `tiempo agotado (${settings.timeoutMs} ms)` : (err as Error).message;
    settings.onOutcome?.(reason);
    return { hits, probabilities: null };
  }
  settings.onOutcome?.(null);
  const probabilities = relevanceProbabilities(scores);
  const order = head
    .map((hit, i) => ({ hit, score: probabilities[i]! }))
    .sort((a, b) => b.score - a.score || a.hit.rank - b.hit.rank);
  return {
    hits: [...order.map((o) => o.hit), ...hits.slice(head.length)].map((hit, i) => ({ ...hit, rank: i + 1 })),
    probabilities: new Map(order.map((o) => [o.hit.id, o.score])),
  };
}

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
  /** Told of every outcome, for `GET /api/health` and the logs (the reason never quotes passages). */
  onOutcome?: (failure: string | null) => void;
}

const textOf = (hit: SearchHit): string => (hit.headings.length ? `${hit.headings.join(' › ')}\n${hit.text}` : hit.text);

/** Reorders the first `topN` hits by the reranker's scores; on failure or timeout returns the hits unchanged. */
export async function rerankHits(question: string, hits: SearchHit[], settings: RerankSettings): Promise<SearchHit[]> {
  const head = hits.slice(0, settings.topN);
  if (head.length < 2) return hits;
  let scores: number[];
  try {
    scores = await settings.reranker.score(question, head.map(textOf), AbortSignal.timeout(settings.timeoutMs));
    if (scores.length !== head.length || !scores.every(Number.isFinite)) throw new Error(`${scores.length} puntuaciones para ${head.length} pasajes`);
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `tiempo agotado (${settings.timeoutMs} ms)` : (err as Error).message;
    settings.onOutcome?.(reason);
    return hits;
  }
  settings.onOutcome?.(null);
  const order = head.map((hit, i) => ({ hit, score: scores[i]! })).sort((a, b) => b.score - a.score || a.hit.rank - b.hit.rank);
  return [...order.map((o) => o.hit), ...hits.slice(head.length)].map((hit, i) => ({ ...hit, rank: i + 1 }));
}

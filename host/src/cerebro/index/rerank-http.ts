// A reranker behind an HTTP `/rerank` endpoint. Two response shapes exist in the wild and both are read:
// Jina / Cohere / llama.cpp server (`{"results": [{"index", "relevance_score"}]}`) and Hugging Face TEI
// (`[{"index", "score"}]`). The request carries the passages as `documents` (Jina, Cohere, llama.cpp) and as
// `texts` (TEI); each server ignores the field it does not know.
import { ModelEndpointError, postJson, type EndpointConfig } from '../vector/http-json.js';
import type { Reranker } from './reranker.js';

export interface HttpRerankerConfig extends EndpointConfig {
  model: string;
}

type Scored = { index?: unknown; relevance_score?: unknown; score?: unknown };

export function scoresFromRerankBody(body: unknown, count: number): number[] {
  const results: unknown = Array.isArray(body) ? body : (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new ModelEndpointError('respuesta de reordenación sin "results"');
  const scores = new Array<number>(count).fill(Number.NaN);
  for (const r of results as Scored[]) {
    const score = typeof r.relevance_score === 'number' ? r.relevance_score : r.score;
    if (
      typeof r.index !== 'number' ||
      !Number.isInteger(r.index) ||
      r.index < 0 ||
      r.index >= count ||
      typeof score !== 'number'
    ) {
      throw new ModelEndpointError('respuesta de reordenación con un resultado no válido');
    }
    scores[r.index] = score;
  }
  if (scores.some(Number.isNaN)) throw new ModelEndpointError('respuesta de reordenación incompleta');
  return scores;
}

export class HttpReranker implements Reranker {
  readonly id: string;
  constructor(private readonly config: HttpRerankerConfig) {
    this.id = `http:${config.model || 'default'}`;
  }

  async score(query: string, passages: readonly string[], signal: AbortSignal): Promise<number[]> {
    const body = await postJson(
      this.config,
      '/rerank',
      {
        model: this.config.model,
        query,
        documents: passages,
        texts: passages,
        top_n: passages.length,
        return_documents: false,
      },
      signal,
    );
    return scoresFromRerankBody(body, passages.length);
  }
}

// Retrieval for one question: BM25 alone, or BM25 and vector similarity merged by reciprocal rank fusion when an
// embedding model is configured; then, when a reranker is configured, its rescoring of the top passages.
import { queryTermGroups } from '../text/analyzer.js';
import type { Embedder } from '../vector/embedder.js';
import type { VectorStore } from '../vector/vector-store.js';
import type { PassageIndex, SearchHit } from './passage-index.js';
import { rerankHits, type RerankSettings } from './reranker.js';
import { reciprocalRankFusion } from './rrf.js';

export interface Retrieval {
  hits: SearchHit[];
  /** The analysed question: one group of alternative terms per content word. */
  groups: string[][];
  mode: 'bm25' | 'hybrid';
}

export interface VectorSearch {
  embedder: Embedder;
  store: VectorStore;
  /** Told whether embedding the question worked (a failing endpoint degrades that question to full text). */
  onQueryOutcome?: (failure: string | null) => void;
}

export class Retriever {
  constructor(
    private readonly index: PassageIndex,
    private readonly vectors: VectorSearch | null = null,
    private readonly rerank: RerankSettings | null = null,
  ) {}

  get hybrid(): boolean {
    return this.vectors !== null;
  }

  async retrieve(space: string, question: string, k: number): Promise<Retrieval> {
    if (!this.rerank) return this.firstStage(space, question, k);
    const first = await this.firstStage(space, question, Math.max(k, this.rerank.topN));
    return { ...first, hits: (await rerankHits(question, first.hits, this.rerank)).slice(0, k) };
  }

  private async firstStage(space: string, question: string, k: number): Promise<Retrieval> {
    const groups = queryTermGroups(question, this.index.languages(space));
    if (!this.vectors) return { hits: this.index.searchGroups(space, groups, k), groups, mode: 'bm25' };

    // Each list is cut deeper than k so that a passage ranked moderately by both can rise to the top.
    const depth = Math.max(k * 4, 20);
    const lexical = this.index.searchGroups(space, groups, depth);
    let queryVector: Float32Array;
    try {
      [queryVector] = (await this.vectors.embedder.embed([question], 'query')) as [Float32Array];
      this.vectors.onQueryOutcome?.(null);
    } catch (err) {
      this.vectors.onQueryOutcome?.((err as Error).message);
      return { hits: lexical.slice(0, k), groups, mode: 'bm25' };
    }
    const semantic = this.vectors.store.nearest(space, queryVector, depth);
    const fused = reciprocalRankFusion([lexical.map((h) => h.id), semantic.map((h) => h.id)]).slice(0, k);

    const byId = new Map(lexical.map((h) => [h.id, h]));
    const hits: SearchHit[] = [];
    for (const { id, score } of fused) {
      const known = byId.get(id);
      const record = known ?? this.index.passage(space, id);
      if (!record) continue;
      hits.push({ ...record, bm25: known?.bm25 ?? 0, score, rank: hits.length + 1 });
    }
    return { hits, groups, mode: 'hybrid' };
  }
}

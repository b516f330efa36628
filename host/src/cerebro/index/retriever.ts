// Retrieval for one question: BM25 alone, or BM25 and vector similarity merged by reciprocal rank fusion when an
// embedding model is configured.
import { queryTermGroups } from '../text/analyzer.js';
import type { Embedder } from '../vector/embedder.js';
import type { VectorStore } from '../vector/vector-store.js';
import type { PassageIndex, SearchHit } from './passage-index.js';
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
}

export class Retriever {
  constructor(private readonly index: PassageIndex, private readonly vectors: VectorSearch | null = null) {}

  get hybrid(): boolean {
    return this.vectors !== null;
  }

  async retrieve(space: string, question: string, k: number): Promise<Retrieval> {
    const groups = queryTermGroups(question, this.index.languages(space));
    if (!this.vectors) return { hits: this.index.searchGroups(space, groups, k), groups, mode: 'bm25' };

    // Each list is cut deeper than k so that a passage ranked moderately by both can rise to the top.
    const depth = Math.max(k * 4, 20);
    const lexical = this.index.searchGroups(space, groups, depth);
    const [queryVector] = await this.vectors.embedder.embed([question], 'query');
    const semantic = this.vectors.store.nearest(space, queryVector!, depth);
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

// Retrieval for one question: BM25 alone, or BM25 and vector similarity merged by reciprocal rank fusion when an
// embedding model is configured; then, when a reranker is configured, its rescoring of the top passages. With
// models, the retrieval also carries their judgement of each passage, which the relevance decision uses.
import { exactQueryWords, queryTermGroups, queryWords, type Language } from '../text/analyzer.js';
import { literalWords } from '../text/identifiers.js';
import { closeWords, DEFAULT_MIN_WORD_SIMILARITY } from '../vector/close-words.js';
import type { Embedder } from '../vector/embedder.js';
import type { VectorRepository } from '../../storage/port/vector-repository.js';
import type { PassageIndex, SearchHit } from './passage-index.js';
import { DEFAULT_RERANK_MIN_PROBABILITY } from '../answer/relevance.js';
import { rerankHits, type RerankSettings } from './reranker.js';
import { reciprocalRankFusion } from './rrf.js';
import { keepInScope, type RetrievalScope } from './retrieval-scope.js';

/** What the models said about the retrieved passages (absent entries: the model did not judge that passage). */
export interface ModelJudgement {
  /** The reranker's relevance probability (0–1) per passage id it rescored. */
  rerank: ReadonlyMap<number, number> | null;
  /** The probability at which the reranker counts a passage as relevant (`RerankSettings.minProbability`). */
  rerankMinProbability?: number;
  /** Per passage id, the question's content-word groups (by index) close in meaning to the passage. */
  closeWords: ReadonlyMap<number, ReadonlySet<number>> | null;
  /** The content words' embeddings (one per group), to place a close word in the unit it belongs to. */
  wordVectors?: readonly Float32Array[];
}

export interface Retrieval {
  /** The space searched (its term statistics weigh the question's words: PassageIndex.idf). */
  space: string;
  hits: SearchHit[];
  /** The analysed question: one group of alternative terms per content word. */
  groups: string[][];
  mode: 'bm25' | 'hybrid';
  /** The languages the question was analysed in (the space's: PassageIndex.languages). */
  languages: readonly Language[];
  /** Null without models, or when every model failed for this question. */
  judgement: ModelJudgement | null;
  /**
   * When the retrieval began (`performance.now()`): the index's statistics it read were checked fresh after this, and
   * the reads that judge its passages may rely on that check (PassageIndex `since`).
   */
  since?: number;
}

export interface VectorSearch {
  embedder: Embedder;
  store: VectorRepository;
  /** Told whether embedding the question worked (a failing endpoint degrades that question to full text). */
  onQueryOutcome?: (failure: string | null) => void;
  /** Cosine similarity at which a question word counts as covered by a passage (default 0.8; close-words.ts). */
  minWordSimilarity?: number;
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

  /** `scope`: only passages of these documents are candidates (retrieval-scope.ts); null: the whole space. */
  async retrieve(space: string, question: string, k: number, scope: RetrievalScope = null): Promise<Retrieval> {
    if (!this.rerank) return this.firstStage(space, question, k, scope);
    const first = await this.firstStage(space, question, Math.max(k, this.rerank.topN), scope);
    const { hits, probabilities } = await rerankHits(question, first.hits, this.rerank);
    const judgement: ModelJudgement | null =
      probabilities || first.judgement
        ? {
            closeWords: first.judgement?.closeWords ?? null,
            rerank: probabilities,
            rerankMinProbability: this.rerank.minProbability ?? DEFAULT_RERANK_MIN_PROBABILITY,
            ...(first.judgement?.wordVectors ? { wordVectors: first.judgement.wordVectors } : {}),
          }
        : null;
    return { ...first, hits: hits.slice(0, k), judgement };
  }

  private async firstStage(space: string, question: string, k: number, scope: RetrievalScope): Promise<Retrieval> {
    const since = performance.now();
    const languages = await this.index.languages(space, since);
    const groups = queryTermGroups(question, languages);
    const exact = exactQueryWords(question, languages);
    const literal = literalWords(question, languages);
    if (!this.vectors)
      return {
        space,
        hits: await this.lexical(space, groups, exact, literal, k, scope, since),
        groups,
        languages,
        mode: 'bm25',
        judgement: null,
        since,
      };

    // Each list is cut deeper than k so that a passage ranked moderately by both can rise to the top.
    const depth = Math.max(k * 4, 20);
    const lexical = await this.lexical(space, groups, exact, literal, depth, scope, since);
    // The content words ride in the question's call (one request to an endpoint), embedded the same way.
    const wordList = queryWords(question, languages);
    let queryVector: Float32Array;
    let wordVectors: Float32Array[];
    try {
      [queryVector, ...wordVectors] = (await this.vectors.embedder.embed([question, ...wordList], 'query')) as [
        Float32Array,
        ...Float32Array[],
      ];
      this.vectors.onQueryOutcome?.(null);
    } catch (err) {
      this.vectors.onQueryOutcome?.((err as Error).message);
      return { space, hits: lexical.slice(0, k), groups, languages, mode: 'bm25', judgement: null, since };
    }
    const store = this.vectors.store;
    const semantic = scope
      ? await keepInScope(
          (n) => this.nearestWithDocuments(space, queryVector, n),
          (h) => scope.has(h.documentId),
          depth,
        )
      : await store.nearest(space, queryVector, depth);
    const fused = reciprocalRankFusion([lexical.map((h) => h.id), semantic.map((h) => h.id)]).slice(0, k);

    const byId = new Map(lexical.map((h) => [h.id, h]));
    const read = new Map(
      (
        await this.index.repository.passages(
          space,
          fused.filter((f) => !byId.has(f.id)).map((f) => f.id),
        )
      ).map((p) => [p.id, p]),
    );
    const hits: SearchHit[] = [];
    for (const { id, score } of fused) {
      const known = byId.get(id);
      const record = known ?? read.get(id);
      if (!record) continue;
      hits.push({ ...record, bm25: known?.bm25 ?? 0, score, rank: hits.length + 1 });
    }
    const passageVectors = await this.vectors.store.vectors(
      space,
      hits.map((h) => h.id),
    );
    const close = closeWords(
      wordVectors,
      passageVectors,
      this.vectors.minWordSimilarity ?? DEFAULT_MIN_WORD_SIMILARITY,
    );
    return {
      space,
      hits,
      groups,
      languages,
      mode: 'hybrid',
      judgement: { rerank: null, closeWords: close, wordVectors },
      since,
    };
  }

  private lexical(
    space: string,
    groups: string[][],
    exact: readonly string[],
    literal: readonly boolean[],
    k: number,
    scope: RetrievalScope,
    since?: number,
  ): Promise<SearchHit[]> {
    if (scope) {
      if (scope.size === 0) return Promise.resolve([]);
      return keepInScope(
        (n) => this.lexical(space, groups, exact, literal, n, null, since),
        (h) => scope.has(h.documentId),
        k,
      ).then((hits) => hits.map((h, i) => ({ ...h, rank: i + 1 })));
    }
    return this.index.searchGroups(space, groups, k, exact, literal, since);
  }

  /** The space's nearest passages with the document each belongs to (hidden or gone ones: no document). */
  private async nearestWithDocuments(
    space: string,
    vector: Float32Array,
    k: number,
  ): Promise<{ id: number; distance: number; documentId: string }[]> {
    const near = await this.vectors!.store.nearest(space, vector, k);
    const records = await this.index.repository.passages(
      space,
      near.map((h) => h.id),
    );
    const documentOf = new Map(records.map((p) => [p.id, p.documentId]));
    return near.map((h) => ({ ...h, documentId: documentOf.get(h.id) ?? '' }));
  }

  /**
   * For each text (the units of a passage), the question's content-word groups close in meaning to it: a close word
   * of a passage belongs to the unit that says it, not to every unit of the passage. One embedding call; null
   * without an embedder or when the call fails (then no unit is credited with a word it does not spell).
   */
  async closeWordsOf(texts: readonly string[], wordVectors: readonly Float32Array[]): Promise<Set<number>[] | null> {
    if (!this.vectors || texts.length === 0 || wordVectors.length === 0) return null;
    let vectors: Float32Array[];
    try {
      vectors = await this.vectors.embedder.embed(texts, 'passage');
    } catch {
      return null;
    }
    const byIndex = new Map(vectors.map((v, i) => [i, v]));
    const close = closeWords(wordVectors, byIndex, this.vectors.minWordSimilarity ?? DEFAULT_MIN_WORD_SIMILARITY);
    return texts.map((_, i) => close.get(i) ?? new Set());
  }
}

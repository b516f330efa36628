// The Cerebro engine as one object for the routes: documents in (indexing queue), questions out (answers with
// sources), everything scoped by space id. Composes the pieces; holds no logic of its own beyond wiring.
import type { SqliteDatabase } from '../storage/database.js';
import type { DocumentJobRepository } from '../storage/port/document-job-repository.js';
import type { EngineStorage } from '../storage/port/engine-storage.js';
import type { DocumentPassagePage, PassageIndexRepository } from '../storage/port/passage-index-repository.js';
import { sqliteEngineStorage } from '../storage/sqlite/engine-storage.js';
import { ExtractiveAnswerer } from './answer/extractive.js';
import { GenerativeAnswerer } from './answer/generative.js';
import { OpenAiChatClient, type ChatClientConfig } from './answer/openai-client.js';
import type { Answer, AnswerEvent, Answerer, AnswerRequest } from './answer/types.js';
import { createPreparePool, type PreparePool } from './extract/pool.js';
import { PassageIndex, type SearchHit, type SpaceStats } from './index/passage-index.js';
import type { RerankSettings } from './index/reranker.js';
import { Retriever, type VectorSearch } from './index/retriever.js';
import type { RetrievalScope } from './index/retrieval-scope.js';
import { IndexingRunner, type IndexingDependencies, type IndexingOptions } from './jobs/indexing-runner.js';
import { PassageIndexWriter } from './jobs/passage-writer.js';
import type { DocumentStatus } from './jobs/types.js';
import type { Embedder } from './vector/embedder.js';
import { OnnxEmbedder, type OnnxEmbedderOptions } from './vector/onnx-embedder.js';

export interface CerebroEngineConfig {
  /** The host database, already migrated with CEREBRO_MIGRATION: its repositories when `storage` is absent. */
  db?: SqliteDatabase;
  /** Documents, jobs, leases, vectors and passages; absent: the SQLite repositories over `db`. */
  storage?: EngineStorage;
  /** Embedding model for hybrid retrieval; null or absent: full text only. */
  embedder?: Embedder | null;
  /** Told whether embedding each question worked (an endpoint may fail; that question is answered on full text). */
  onEmbedderOutcome?: (failure: string | null) => void;
  /** Cosine similarity at which a question word counts as covered by a passage (default 0.8, vector/close-words.ts). */
  minWordSimilarity?: number;
  /** A reranker over the top passages; null or absent: first-stage order. */
  rerank?: RerankSettings | null;
  /** OpenAI-compatible chat endpoint; null or absent: the embedded extractive engine answers. */
  chat?: ChatClientConfig | null;
  indexing?: Partial<IndexingOptions>;
  /** Worker threads for extraction (default 1). */
  workerThreads?: number;
  /**
   * Threads running the full-text match of questions (default 0: on the calling thread), for the SQLite storage made
   * when `storage` is absent. Needs a database file: with an in-memory database questions are searched on the
   * calling thread whatever this says.
   */
  searchThreads?: number;
  /** Spaces with fewer passages are matched on the calling thread even with search threads (default INLINE_MATCH_PASSAGES). */
  searchInlinePassages?: number;
  /** Supply a pool (tests); otherwise one is created and owned by the engine. */
  pool?: PreparePool;
  onContentChanged?: (space: string) => void;
  onStateChanged?: (doc: DocumentStatus) => void;
  /** The folder stored document paths are relative to (the data folder); absent: paths are used as stored. */
  originalsRoot?: string;
  /** A local file with a stored original's bytes, released after indexing (originals kept outside the data folder). */
  openOriginal?: IndexingDependencies['openOriginal'];
  /** Errors the indexing runner survived (full disk, busy database), for the log. */
  onIndexingError?: IndexingDependencies['onError'];
  /** A job met a full disk (give back reserved space so its failure can be written). */
  onDiskFull?: () => void;
}

export class CerebroEngine {
  readonly index: PassageIndex;
  readonly documents: IndexingRunner;
  /** The documents' records. */
  readonly records: DocumentJobRepository;
  readonly retriever: Retriever;
  private readonly answerer: Answerer;
  private readonly pool: PreparePool;
  private readonly ownsPool: boolean;
  private readonly passages: PassageIndexRepository;

  constructor(config: CerebroEngineConfig) {
    if (!config.storage && !config.db) throw new Error('CerebroEngine: falta `db` o `storage`.');
    const storage =
      config.storage ??
      sqliteEngineStorage(config.db!, {
        threads: config.searchThreads ?? 0,
        ...(config.searchInlinePassages !== undefined ? { inlinePassages: config.searchInlinePassages } : {}),
      });
    this.passages = storage.passages;
    this.records = storage.documents;
    this.index = new PassageIndex(storage.passages);
    const vectorStore = config.embedder ? storage.vectors.forDimensions(config.embedder.dimensions) : null;
    const vectors: VectorSearch | null =
      config.embedder && vectorStore
        ? {
            embedder: config.embedder,
            store: vectorStore,
            ...(config.onEmbedderOutcome ? { onQueryOutcome: config.onEmbedderOutcome } : {}),
            ...(config.minWordSimilarity !== undefined ? { minWordSimilarity: config.minWordSimilarity } : {}),
          }
        : null;
    this.retriever = new Retriever(this.index, vectors, config.rerank ?? null);
    this.ownsPool = !config.pool;
    this.pool = config.pool ?? createPreparePool({ threads: config.workerThreads ?? 1 });
    const deps: IndexingDependencies = {
      documents: storage.documents,
      leases: storage.leases,
      passages: new PassageIndexWriter(storage.passages, vectorStore),
      pool: this.pool,
      vectors: config.embedder && vectorStore ? { embedder: config.embedder, store: vectorStore } : null,
    };
    if (config.onContentChanged) deps.onContentChanged = config.onContentChanged;
    if (config.onStateChanged) deps.onStateChanged = config.onStateChanged;
    if (config.originalsRoot !== undefined) deps.originalsRoot = config.originalsRoot;
    if (config.openOriginal) deps.openOriginal = config.openOriginal;
    if (config.onIndexingError) deps.onError = config.onIndexingError;
    if (config.onDiskFull) deps.onDiskFull = config.onDiskFull;
    this.documents = new IndexingRunner(deps, config.indexing);
    this.answerer = config.chat
      ? new GenerativeAnswerer(this.index, this.retriever, new OpenAiChatClient(config.chat))
      : new ExtractiveAnswerer(this.index, this.retriever);
  }

  /**
   * Builds the engine, loading the embedding model first when `embeddingModel` names a local directory
   * (model.onnx + vocab.txt). Without it, retrieval is full text only.
   */
  static async create(
    config: Omit<CerebroEngineConfig, 'embedder'> & { embeddingModel?: ({ dir: string } & OnnxEmbedderOptions) | null },
  ): Promise<CerebroEngine> {
    const { embeddingModel, ...rest } = config;
    const embedder = embeddingModel ? await OnnxEmbedder.load(embeddingModel.dir, embeddingModel) : null;
    return new CerebroEngine({ ...rest, embedder });
  }

  /** Whether hybrid (full text + vectors) retrieval is on. */
  get hybrid(): boolean {
    return this.retriever.hybrid;
  }

  /** Resumes interrupted indexing and starts the queue. Call once the database is migrated. */
  start(): Promise<{ requeued: number; failed: number }> {
    return this.documents.start();
  }

  async stop(): Promise<void> {
    await this.documents.stop();
    if (this.ownsPool) await this.pool.close();
    await this.passages.close();
  }

  /**
   * Ranked passages of the space for a query (BM25, or hybrid when an embedder is configured); with `scope`, only
   * passages of those documents (by id).
   */
  async search(space: string, query: string, k = 10, scope: RetrievalScope = null): Promise<SearchHit[]> {
    return (await this.retriever.retrieve(space, query, k, scope)).hits;
  }

  ask(request: AnswerRequest): Promise<Answer> {
    return this.answerer.answer(request);
  }

  askStream(request: AnswerRequest): AsyncIterable<AnswerEvent> {
    return this.answerer.stream(request);
  }

  stats(space: string): Promise<SpaceStats> {
    return this.index.stats(space);
  }

  /** A page of a document's searchable passages as indexed, in order, with their count (the document viewer). */
  documentPassages(space: string, documentId: string, offset: number, limit: number): Promise<DocumentPassagePage> {
    return this.passages.documentPassages(space, documentId, offset, limit);
  }
}

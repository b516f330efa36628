// Public surface of the Cerebro engine for the host's routes.
export { CerebroEngine, type CerebroEngineConfig } from './engine.js';
export { CEREBRO_MIGRATION, CEREBRO_SCHEMA_SQL } from './schema.js';
export { CEREBRO_HIDDEN_PASSAGES_MIGRATION } from './hidden-passages-schema.js';
export { CEREBRO_FAIR_QUEUE_MIGRATION } from './fair-queue-schema.js';
export { CEREBRO_JOB_LEASES_MIGRATION } from './job-leases-schema.js';
export { CEREBRO_PASSAGE_OCR_SQL } from './passage-ocr-schema.js';
export { CerebroExtractionError, type ExtractionErrorCode } from './errors.js';
export { formatOf, MEDIA_TYPES, readsWhole } from './extract/formats.js';
export type { DocumentFormat } from './extract/types.js';
export type { MatchedRow, MatchPlan, PlanMatcher, SearchHit, SpaceStats } from './index/passage-index.js';
export { mergeWordMatches } from './index/passage-index.js';
export { passageTerms } from './extract/passage-terms.js';
// Not prepareDocument: the barrel is imported by the main thread, and prepare.js brings every extractor with it (they
// run in the extraction threads: extract/worker.ts imports prepare.js itself).
export type { PreparedPassage, PrepareResult } from './extract/prepare.js';
export { createPreparePool, type PreparePool } from './extract/pool.js';
export { matchExpression } from './index/fts-query.js';
export { queryTermGroups } from './text/analyzer.js';
export type { RetrievalScope } from './index/retrieval-scope.js';
export type { DocumentState, DocumentStatus, SpaceIndexingStatus, SubmitDocument } from './jobs/types.js';
export { DEFAULT_INDEXING_OPTIONS, PURGE_BATCH, type IndexingOptions } from './jobs/indexing-runner.js';
export {
  DEFAULT_ANSWER_OPTIONS,
  type Answer,
  type AnswerEvent,
  type AnswerOptions,
  type AnswerRequest,
  type AnswerSource,
  type AnswerUsage,
  type ChatTurn,
} from './answer/types.js';
export { ChatClientError, OpenAiChatClient, type ChatClientConfig } from './answer/openai-client.js';
export type { Embedder } from './vector/embedder.js';
export { OnnxEmbedder, type OnnxEmbedderOptions } from './vector/onnx-embedder.js';
export { HttpEmbedder } from './vector/http-embedder.js';
export { DEFAULT_MIN_WORD_SIMILARITY } from './vector/close-words.js';
export { DEFAULT_RERANK_MIN_PROBABILITY } from './answer/relevance.js';
export { INLINE_MATCH_PASSAGES } from '../storage/sqlite/passage-index/inline-match.js';
export type { Reranker, RerankSettings } from './index/reranker.js';
export { HttpReranker } from './index/rerank-http.js';
export { OnnxReranker } from './index/rerank-onnx.js';
export { MODEL_CATALOGUE, catalogueModel } from './models/catalogue.js';
export { installModel } from './models/install-model.js';
export { readManifest, type ModelManifest } from './models/model-manifest.js';

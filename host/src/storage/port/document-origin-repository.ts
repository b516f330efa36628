import { createToken, type DocumentOrigin, type RecordedOrigin } from '@cerebro/sdk';

/**
 * Where the documents modules brought came from (a page's address, its `ETag`, the source that fetched it). A
 * document's origin goes with the document (a backend drops it when the document row is deleted).
 *
 * Guarantees: each method is one statement; `put` replaces the whole origin of a document.
 */
export interface DocumentOriginRepository {
  put(space: string, documentId: string, module: string, origin: DocumentOrigin): Promise<void>;
  /** A document replaced by an upload is no longer what the module brought. */
  clear(space: string, documentId: string): Promise<void>;
  get(space: string, documentId: string): Promise<RecordedOrigin | null>;
  /** The origins of several documents at once (documents without one are absent from the map). */
  ofDocuments(space: string, documentIds: readonly string[]): Promise<Map<string, RecordedOrigin>>;
  /** Origins of one module's documents (optionally of one of its sources), by document id. */
  ofModule(space: string, module: string, source?: string): Promise<Map<string, RecordedOrigin>>;
}

export const DocumentOriginRepositoryToken = createToken<DocumentOriginRepository>('host:document-origin-repository');

/**
 * The same reads, synchronous: only for the sdk's deprecated synchronous `Documents.get` and `listOwn`, served on
 * SQLite alone. They go away with those methods; nothing else may use them.
 */
export interface DocumentOriginsNow {
  getNow(space: string, documentId: string): RecordedOrigin | null;
  ofModuleNow(space: string, module: string, source?: string): Map<string, RecordedOrigin>;
}

export const DocumentOriginsNowToken = createToken<DocumentOriginsNow>('host:document-origins-now');

/**
 * Where a document came from, kept with the document record and shown in the documents list (`origen`).
 * Plugins that bring documents from elsewhere (web pages, feeds) fill it; uploaded files have none.
 */
export interface DocumentOrigin {
  /** Id of whatever brought the document within the plugin (a source id, for `fuentes`), or null. */
  fuente: string | null;
  /** Address the content was read from (after redirects), or null. */
  url: string | null;
  /** When the content was fetched (ISO 8601). */
  obtenido: string;
  /** The `ETag` the server sent, for conditional re-fetching. */
  etag: string | null;
  /** The `Last-Modified` the server sent, as sent. */
  ultima_modificacion: string | null;
  /** SHA-256 (hex) of the content as fetched, before any reduction. */
  hash: string | null;
}

/** A document's origin as the host records it: also names the module that added it. */
export interface RecordedOrigin extends DocumentOrigin {
  /** Id of the plugin that added the document. */
  modulo: string;
}

/** A document of a space as plugins see it. */
export interface SpaceDocument {
  /** Stable id (kept when the document is replaced). */
  id: string;
  /** Name in the space (unique within it). */
  nombre: string;
  /** Indexing state, as the documents list shows it. */
  estado: 'en_cola' | 'procesando' | 'listo' | 'fallido';
  /** Increases each time the document is replaced. */
  version: number;
  /** Size of the stored content. */
  bytes: number;
  /** Why indexing failed (state `fallido`), else null. */
  error: { codigo: string | null; motivo: string | null } | null;
  /** Where it came from (null for uploaded files). */
  origen: RecordedOrigin | null;
}

/** What `put` stores: the bytes of one document, its name, content type and origin. */
export interface DocumentInput {
  /**
   * The document's name in the space (a label: 1–255 bytes, no `/`, `\` or control characters). The same name
   * replaces the earlier document (same id, version + 1; the old passages answer until the new ones are ready).
   */
  nombre: string;
  /** The bytes (a string is stored as UTF-8). */
  contenido: Uint8Array | string;
  /** Content type, e.g. `text/html`, `application/pdf`: tells the Cerebro's indexing how to read it. */
  tipo: string;
  /** Where the content came from; null or absent: none (as for an uploaded file). */
  origen?: DocumentOrigin | null;
}

/** Documents one `DocumentsService.putMany` call may store at most. */
export const PUT_MANY_MAX = 100;

/** One passage found by `search`, best first. */
export interface PassageHit {
  /** Name of the document holding the passage. */
  documento: string;
  /** Id of that document. */
  documento_id: string;
  /** Id of the passage (stable until the document is replaced). */
  pasaje: number;
  /** Page of a PDF (null for other formats). */
  pagina: number | null;
  /** Heading path of the passage, joined with " › ", or null. */
  seccion: string | null;
  /** Ranking score (higher is better); comparable only within one search. */
  puntuacion: number;
  /** 1-based rank in this search. */
  posicion: number;
  /** The passage text (light Markdown). */
  texto: string;
  /** The document's origin, when it has one (the page URL for web pages). */
  origen: RecordedOrigin | null;
}

export interface SearchOptions {
  /** How many passages at most (1–50, default 10). */
  limite?: number;
  /** Only passages of these documents (names). */
  documentos?: readonly string[];
  /** Only passages of documents carrying all these labels (`etiquetas`, as set at upload or by PATCH). */
  etiquetas?: readonly string[];
}

/**
 * The documents of a space, for plugins: add, replace and remove them with an origin through the host's own
 * indexing (the same pipeline as uploads: extraction, passages, search), list the ones a plugin added, and search
 * the space's passages. Charges no credits; the calling route decides that.
 *
 * @example
 * const docs = scope.resolve(HostServices.Documents);
 * await docs.put(space, { nombre: 'ejemplo.com › precios', contenido: html, tipo: 'text/html',
 *   origen: { fuente: 'f1', url: 'https://ejemplo.com/precios', obtenido: new Date().toISOString(), etag: null, ultima_modificacion: null, hash: null } });
 * const hits = await docs.search(space, 'precio del plan', { limite: 5 });
 */
export interface DocumentsService {
  /**
   * Adds or replaces a document and queues it for indexing. Rejects with an `ApiError` (`validation`) for a name the
   * API would refuse or an empty content.
   */
  put(spaceId: string, input: DocumentInput): Promise<SpaceDocument>;
  /**
   * Adds or replaces several documents in one call (sdk 2.1), answering them in the order given: what a plugin
   * bringing many documents at once (a crawl) uses instead of one `put` each, as the host then reads the account's
   * storage once for the whole batch. Checked like `put`, and all of it before anything is stored: a name the API
   * would refuse, an empty content, a name given twice or more than `PUT_MANY_MAX` (100) documents reject the whole
   * call with an `ApiError` (`validation_failed`, 422, `loc` `['body', 'documentos', i, 'nombre' | 'contenido']`;
   * `['body', 'documentos']` for too many), and so does a batch that
   * would pass the account's storage quota (`storage_quota_bytes` 413 / `storage_quota_documents` 422: counted as
   * an upload of those files is, each replaced document as its difference). A storage failure midway (a full disk)
   * rejects too, keeping the documents stored before it. An empty list stores nothing.
   */
  putMany(spaceId: string, inputs: readonly DocumentInput[]): Promise<SpaceDocument[]>;
  /** Removes a document (also while it is indexed), its passages and its stored original. False when absent. */
  remove(spaceId: string, nombre: string): Promise<boolean>;
  /** The document of that name, or null. */
  find(spaceId: string, nombre: string): Promise<SpaceDocument | null>;
  /** Documents this plugin added to the space, optionally only those of one `fuente`, in name order. */
  findOwn(spaceId: string, filter?: { fuente?: string }): Promise<SpaceDocument[]>;
  /** @deprecated since 2.1: use `find`. Synchronous; served by a host on SQLite only. */
  get(spaceId: string, nombre: string): SpaceDocument | null;
  /** @deprecated since 2.1: use `findOwn`. Synchronous; served by a host on SQLite only. */
  listOwn(spaceId: string, filter?: { fuente?: string }): SpaceDocument[];
  /** Passages of the space ranked for `query` (full text, plus vectors when the host has an embedding model). */
  search(spaceId: string, query: string, options?: SearchOptions): Promise<PassageHit[]>;
  /** Resolves when none of the given documents (default: none of the space's) is queued or being indexed. */
  idle(
    spaceId: string,
    options?: { nombres?: readonly string[]; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<void>;
}

import { createHash } from 'node:crypto';
import type { Logger as PinoLogger } from 'pino';
import type { DocumentOrigin, ReceivedFile } from '@cerebro/sdk';
import {
  CerebroEngine,
  MEDIA_TYPES,
  formatOf,
  readsWhole,
  type Answer,
  type AnswerEvent,
  type ChatClientConfig,
  type ChatTurn,
  type DocumentStatus,
} from '../cerebro/index.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { EngineStorage } from '../storage/port/engine-storage.js';
import type { DocumentReadsNow } from '../storage/port/document-job-repository.js';
import { fileSha256 } from '../storage/file-sha256.js';
import { DiskReserve } from '../storage/disk-reserve.js';
import { FolderOriginalsStore } from '../storage/originals/originals-store.js';
import type { OriginalReader, OriginalsStore } from '../storage/port/originals-store.js';
import { AnswerCache } from './answer-cache.js';
import { ConversationStore } from './conversations.js';
import type { ConversationLog } from './conversation-log.js';
import { RecordedConversations } from './recorded-conversations.js';
import type { AnswerCacheRepository } from '../storage/port/answer-cache-repository.js';
import type { ConversationRepository } from '../storage/port/conversation-repository.js';
import type { RagSettingsRepository } from '../storage/port/rag-settings-repository.js';
import { canonicalDocumentName, documentNameProblem } from './document-names.js';
import type { DocumentOriginRepository, DocumentOriginsNow } from '../storage/port/document-origin-repository.js';
import { asStatus } from './document-status.js';
import type { DocumentLabelRepository } from '../storage/port/document-label-repository.js';
import { NO_LABELS, normaliseTag, type DocumentLabels } from './document-labels.js';
import { questionScope, WHOLE_SPACE, type Narrowing, type QuestionScope } from './question-scope.js';
import type { HostMetrics } from '../metrics/metrics-services.js';
import { indexingErrorLogger, indexingObserver } from './indexing-observer.js';
import type { SearchModels } from './search-models.js';
import { answerOptionsOf, patchRagConfig, ragConfigFromStored, type RagConfig } from './rag-config.js';

/** The rag layer's own storage, behind the storage port. */
export interface RagRepositories {
  answers: AnswerCacheRepository;
  settings: RagSettingsRepository;
  conversations: ConversationRepository;
  labels: DocumentLabelRepository;
  origins: DocumentOriginRepository;
  originsNow: DocumentOriginsNow;
  /** Only for the sdk's deprecated synchronous `Documents.get` and `listOwn` (SQLite). */
  documentsNow: DocumentReadsNow;
}

export interface RagServiceOptions {
  /** The engine's SQLite database, when `engineStorage` is absent (none on PostgreSQL). */
  db?: SqliteDatabase;
  repositories: RagRepositories;
  /** The engine's documents, jobs, leases and vectors (absent: SQLite repositories over `db`). */
  engineStorage?: EngineStorage;
  dataDir: string;
  /** Where originals live (`CEREBRO_ARCHIVOS`); absent: files in the data folder. */
  originals?: OriginalsStore;
  now: () => number;
  log: PinoLogger;
  chat: ChatClientConfig | null;
  workerThreads: number;
  /** Threads running the full-text match of questions (0 or absent: on the main thread). */
  searchThreads?: number;
  /** Spaces with fewer passages are matched on the main thread even with search threads. */
  searchInlinePassages?: number;
  /** A job running longer than this fails with a reason instead of hanging. */
  jobDeadlineMs: number;
  /** The embedder and reranker the configuration names, already loaded (absent: full text, no reranking). */
  models?: SearchModels;
  /** Where finished indexing jobs are counted (absent: logs only). */
  metrics?: HostMetrics;
  /** Told of every document state change after the logs and metrics (webhooks' `documento.listo` / `fallido`). */
  onDocumentState?: (doc: DocumentStatus) => void;
}

/** The tag of the documents a module's source brought (normalised like every tag). */
const sourceTag = (source: string): string => normaliseTag(`fuente:${source}`) ?? 'fuente:';

/**
 * A half-written original untouched this long has no writer left: a write keeps its file's modification time fresh,
 * and even a large original reaches a slow shared folder in minutes. A whole one no document names this long never
 * will be: its document is submitted right after the write (an uploaded file is given the time it is moved in).
 */
const UNFINISHED_ORIGINAL_AGE_MS = 60 * 60_000;

/** One uploaded file's outcome: its document record, or why it was refused before indexing. */
export type UploadOutcome =
  | { ok: true; document: DocumentStatus }
  | { ok: false; nombre: string; error: { codigo: string; motivo: string } };

/** An answer served from the space's answer cache, and when it was stored. */
/** One document `putDocuments` stores: its bytes, name, content type, the module adding it and its origin. */
export interface PutDocumentInput {
  name: string;
  content: Uint8Array;
  mediaType: string;
  module: string;
  origin: DocumentOrigin | null;
}

export interface CachedAnswer {
  answer: Answer;
  at: string;
}

/** A question to answer in an open conversation, as the routes hand it over. */
export interface QuestionToAnswer {
  question: string;
  conversation: string;
  /** Whether it continues earlier turns (their history is used and its answer is not cached). */
  continuing: boolean;
  /** The cached answer `cachedAnswer` found, if any. */
  cached: CachedAnswer | null;
  /** The documents it may draw from (absent: the whole space). */
  scope?: QuestionScope;
}

export interface AskResult {
  conversation: string;
  answer: Answer;
  cache: { hit: boolean; at?: string };
}

/**
 * The question API around the engine: where originals are kept, per-space settings, the answer cache (emptied on
 * any document or settings change) and conversations.
 */
export class RagService {
  readonly engine: CerebroEngine;
  /** Where module-brought documents came from (shown as `origen` in document records). */
  readonly origins: DocumentOriginRepository;
  /** Only for the sdk's deprecated synchronous `Documents.get` and `listOwn` (SQLite). */
  readonly originsNow: DocumentOriginsNow;
  /** Only for the sdk's deprecated synchronous `Documents.get` and `listOwn` (SQLite). */
  readonly documentsNow: DocumentReadsNow;
  /** Documents' `etiquetas` and `metadatos`. */
  readonly labels: DocumentLabelRepository;
  private readonly cache: AnswerCache;
  private readonly conversations: ConversationStore;
  /** The recorded conversations as an owner reads and rates them. */
  readonly conversationLog: ConversationLog;
  /** Where originals are stored (the data folder, a shared folder or an S3-compatible store). */
  readonly originals: OriginalsStore;
  private readonly settings: RagSettingsRepository;

  /**
   * Builds the service and its engine with the search models already loaded (`SearchModels.load` degrades a model
   * that cannot be loaded to full text or first-stage order, and reports it in `GET /api/health`).
   */
  static async create(options: RagServiceOptions): Promise<RagService> {
    let cache: AnswerCache | undefined;
    const reserve = new DiskReserve(options.dataDir, options.log);
    const observe = indexingObserver(options.log, options.metrics);
    const base = {
      db: options.db,
      ...(options.engineStorage ? { storage: options.engineStorage } : {}),
      chat: options.chat,
      workerThreads: options.workerThreads,
      searchThreads: options.searchThreads ?? 0,
      ...(options.searchInlinePassages !== undefined ? { searchInlinePassages: options.searchInlinePassages } : {}),
      indexing: { deadlineMs: options.jobDeadlineMs },
      onContentChanged: (space: string) => {
        cache
          ?.clear(space)
          .catch((err: unknown) =>
            options.log.error({ err, espacio: space }, 'no se pudo vaciar la caché de respuestas'),
          );
      },
      onStateChanged: (doc: DocumentStatus) => {
        observe(doc);
        options.onDocumentState?.(doc);
        if (doc.state === 'ready') reserve.ensure(); // space is back (or was never short): hold the reserve again
      },
    };
    const models = options.models;
    const originals = options.originals ?? new FolderOriginalsStore(options.dataDir);
    const engine = new CerebroEngine({
      ...base,
      originalsRoot: options.dataDir,
      openOriginal: (stored: string) => originals.local(stored),
      onIndexingError: indexingErrorLogger(options.log),
      onDiskFull: () => reserve.release(),
      embedder: models?.embedder ?? null,
      rerank: models?.rerank ?? null,
      ...(models ? { onEmbedderOutcome: models.onEmbedderOutcome, minWordSimilarity: models.minWordSimilarity } : {}),
    });
    const service = new RagService(options, engine, reserve, originals);
    cache = service.cache;
    return service;
  }

  private constructor(
    private readonly options: RagServiceOptions,
    engine: CerebroEngine,
    private readonly reserve: DiskReserve,
    originals: OriginalsStore,
  ) {
    this.engine = engine;
    const { answers, conversations, settings, labels, origins, originsNow, documentsNow } = options.repositories;
    this.origins = origins;
    this.originsNow = originsNow;
    this.documentsNow = documentsNow;
    this.labels = labels;
    this.cache = new AnswerCache(answers, options.now);
    this.conversations = new ConversationStore(conversations, options.now);
    this.conversationLog = new RecordedConversations(conversations, options.now);
    this.settings = settings;
    this.originals = originals;
  }

  /** Starts the service; `indexes` false (an `api` process) leaves queued documents to a worker process. */
  async start(indexes = true): Promise<void> {
    this.reserve.ensure();
    const resumed = indexes ? await this.engine.start() : { requeued: 0, failed: 0 };
    void this.cache
      .purgeExpired()
      .catch((err: unknown) => this.options.log.warn({ err }, 'no se pudo purgar la caché de respuestas'));
    // Originals retired while a backup ran (or before a crash) go now, and so do those whose writer died mid-upload
    // or before recording the document (old enough that no host can still be writing or recording them).
    void this.originals
      .purgeRetired()
      .catch((err: unknown) => this.options.log.warn({ err }, 'no se pudieron borrar originales retirados'));
    void this.originals
      .sweepUnfinished(UNFINISHED_ORIGINAL_AGE_MS, this.engine.records)
      .then(({ halves, unnamed }) => {
        if (halves) this.options.log.info({ originales: halves }, 'originales a medio escribir borrados');
        if (unnamed) this.options.log.info({ originales: unnamed }, 'originales sin documento que los nombre borrados');
      })
      .catch((err: unknown) => this.options.log.warn({ err }, 'no se pudieron borrar originales sin terminar'));
    if (resumed.requeued || resumed.failed) this.options.log.info(resumed, 'indexación reanudada tras el reinicio');
  }

  stop(): Promise<void> {
    return this.engine.stop();
  }

  async config(space: string): Promise<RagConfig> {
    return ragConfigFromStored((await this.settings.settings(space)) ?? undefined);
  }

  /** Partial update; a change empties the space's answer cache. */
  async patchConfig(space: string, patch: Partial<RagConfig>): Promise<ReturnType<typeof patchRagConfig>> {
    const result = patchRagConfig(await this.config(space), patch);
    if ('config' in result) {
      await this.settings.save(space, JSON.stringify(result.config), new Date(this.options.now()).toISOString());
      await this.cache.clear(space);
    }
    return result;
  }

  /**
   * What storing these files would add to the space's account: their bytes less those of the documents they replace
   * (same name), and one document per new name. Files with a refused name add nothing; a name repeated within the
   * request counts once, at its last file (the one that stays).
   */
  async storageDelta(space: string, files: readonly ReceivedFile[]): Promise<{ bytes: number; documents: number }> {
    const last = new Map<string, number>();
    for (const file of files)
      if (!documentNameProblem(file.filename)) last.set(canonicalDocumentName(file.filename), file.bytes);
    let bytes = 0;
    let documents = 0;
    for (const [name, size] of last) {
      const existing = await this.documentByName(space, name);
      bytes += size - (existing?.bytes ?? 0);
      if (!existing) documents++;
    }
    return { bytes, documents };
  }

  /**
   * Moves each received file into the space's storage and queues it; refused names never touch storage. `labels`,
   * when sent, become the labels of every file of the request; without them a replaced document keeps its own.
   */
  async upload(space: string, files: readonly ReceivedFile[], labels?: DocumentLabels): Promise<UploadOutcome[]> {
    const outcomes: UploadOutcome[] = [];
    for (const file of files) {
      const problem = documentNameProblem(file.filename);
      if (problem) {
        outcomes.push({ ok: false, nombre: file.filename, error: { codigo: 'nombre_no_valido', motivo: problem } });
        continue;
      }
      // Hashed before the file moves: a remote store would otherwise be read back for it.
      const sha256 = await fileSha256(file.path);
      const stored = await this.originals.putFile(space, file.path);
      const document = await this.submitStored(
        space,
        canonicalDocumentName(file.filename),
        stored,
        file.mimeType,
        file.bytes,
        sha256,
      );
      // An uploaded file replacing a module's document is no longer what the module brought: nor its source's tag.
      const source = (await this.origins.get(space, document.id))?.fuente;
      await this.origins.clear(space, document.id);
      if (labels) await this.setLabels(space, document.id, labels);
      else if (source) await this.untagSource(space, document.id, source);
      outcomes.push({ ok: true, document });
    }
    return outcomes;
  }

  /**
   * Adds or replaces documents from bytes in memory, one after another, recording where each came from (modules: web
   * pages and the like). Names must pass the same check as an upload's (`documentNameProblem`); the caller checks them
   * first. `replaced[i]`, when given, is the document input i replaces as the caller has just read it (to count its
   * storage quota): not read a second time here. The answer cache is emptied once for the batch, not once per
   * document tagged.
   */
  async putDocuments(
    space: string,
    inputs: readonly PutDocumentInput[],
    replaced?: readonly (DocumentStatus | null)[],
  ): Promise<DocumentStatus[]> {
    // The originals are written all at once: each is a few file operations (temporary name, write, rename) whose
    // waits overlap, where one after another a batch would wait for each in turn. Those written are discarded when
    // another fails (nothing names them yet).
    // A format indexing reads whole may be kept in the database when small (inline-originals-store.ts).
    const written = await Promise.allSettled(
      inputs.map((input) =>
        this.originals.putBytes(space, input.content, {
          readWhole: readsWhole(formatOf(canonicalDocumentName(input.name), input.mediaType)),
        }),
      ),
    );
    const failed = written.find((w) => w.status === 'rejected');
    if (failed) {
      await Promise.all(
        written.map((w) => (w.status === 'fulfilled' ? this.originals.discard(w.value).catch(() => undefined) : null)),
      );
      throw failed.reason;
    }
    const paths = written.map((w) => (w as PromiseFulfilledResult<string>).value);
    const stored: DocumentStatus[] = [];
    let tagged = false;
    try {
      for (const [i, input] of inputs.entries()) {
        const path = paths[i]!;
        const name = canonicalDocumentName(input.name);
        // Hashed from memory: reading the file back costs three more file operations per document (hundreds per crawl).
        const sha256 = createHash('sha256').update(input.content).digest('hex');
        const document = await this.submitStored(
          space,
          name,
          path,
          input.mediaType,
          input.content.byteLength,
          sha256,
          replaced?.[i],
        );
        if (input.origin) await this.origins.put(space, document.id, input.module, input.origin);
        else await this.origins.clear(space, document.id);
        if (input.origin?.fuente && (await this.tagWithSource(space, document.id, input.origin.fuente))) tagged = true;
        stored.push(document);
      }
    } catch (err) {
      // The originals of the documents not reached would be orphans no record names (submitStored discards its own).
      await Promise.all(paths.slice(stored.length + 1).map((p) => this.originals.discard(p).catch(() => undefined)));
      throw err;
    } finally {
      // Answers narrowed by tags may change. Also after a failure midway: the documents before it are stored.
      if (tagged) await this.cache.clear(space);
    }
    return stored;
  }

  /**
   * A module's source tags what it brings (`fuente:<id>`), so questions and lists can be narrowed to a source. True
   * when the tag was added: the caller empties the answer cache.
   */
  private async tagWithSource(space: string, documentId: string, source: string): Promise<boolean> {
    const tag = sourceTag(source);
    const labels = await this.labelsOf(space, documentId);
    if (labels.tags.includes(tag)) return false;
    await this.labels.put(
      space,
      documentId,
      { ...labels, tags: [...labels.tags, tag] },
      new Date(this.options.now()).toISOString(),
    );
    return true;
  }

  private async untagSource(space: string, documentId: string, source: string): Promise<void> {
    const tag = sourceTag(source);
    const labels = await this.labelsOf(space, documentId);
    if (labels.tags.includes(tag))
      await this.setLabels(space, documentId, { ...labels, tags: labels.tags.filter((t) => t !== tag) });
  }

  /** A document's labels (none: empty). */
  async labelsOf(space: string, documentId: string): Promise<DocumentLabels> {
    return (await this.labels.get(space, documentId)) ?? NO_LABELS;
  }

  /** The labels of several documents, for a list: a document without labels gets empty ones. */
  async labelsOfEach(space: string, documentIds: readonly string[]): Promise<(id: string) => DocumentLabels> {
    const found = await this.labels.labelsOf(space, documentIds);
    return (id) => found.get(id) ?? NO_LABELS;
  }

  /** Replaces a document's labels; answers narrowed by tags may change, so the space's answer cache is emptied. */
  async setLabels(space: string, documentId: string, labels: DocumentLabels): Promise<void> {
    await this.labels.put(space, documentId, labels, new Date(this.options.now()).toISOString());
    await this.cache.clear(space);
  }

  /** The documents a question or search narrowed by `documentos`/`etiquetas` may use (422 on a malformed tag). */
  scope(space: string, narrowing: Narrowing): Promise<QuestionScope> {
    return questionScope(
      this.labels,
      async (name) => (await this.documentByName(space, name))?.id ?? null,
      space,
      narrowing,
    );
  }

  /** Queues a stored original under `name` (replacing a document of that name) and retires the replaced original. */
  private async submitStored(
    space: string,
    name: string,
    stored: string,
    mimeType: string,
    bytes: number,
    sha256: string,
    /** The document of that name as the caller has just read it; undefined: read here. */
    known?: DocumentStatus | null,
  ): Promise<DocumentStatus> {
    const previous = known !== undefined ? known : await this.documentByName(space, name);
    const format = formatOf(name, mimeType);
    let document: DocumentStatus;
    try {
      document = await this.engine.documents.submit(space, {
        name,
        path: stored,
        mediaType: format ? MEDIA_TYPES[format] : mimeType,
        bytes,
        sha256,
      });
    } catch (err) {
      // Not recorded (a full or busy database): the original would be an orphan no record or backup ever names.
      await this.originals.discard(stored).catch(() => undefined);
      throw err;
    }
    if (previous && previous.path !== stored) await this.retire(previous.path);
    return document;
  }

  async documentByName(space: string, name: string): Promise<DocumentStatus | null> {
    return asStatus(await this.engine.records.getByName(space, canonicalDocumentName(name)));
  }

  async document(space: string, id: string): Promise<DocumentStatus | null> {
    return asStatus(await this.engine.records.get(space, id));
  }

  /** The documents with these ids, in their order, in one read (a listing's page); ids with no document left out. */
  async documentsById(space: string, ids: readonly string[]): Promise<DocumentStatus[]> {
    const byId = new Map((await this.engine.records.getMany(space, ids)).map((r) => [r.id, asStatus(r)!]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Every document of the space (what `idle` waits on). */
  async documents(space: string): Promise<DocumentStatus[]> {
    return (await this.engine.records.all(space)).map((r) => asStatus(r)!);
  }

  /** Removes a document (stopping its indexing if running), its passages and its stored original. */
  async remove(space: string, name: string): Promise<DocumentStatus | null> {
    const doc = await this.documentByName(space, name);
    if (!doc) return null;
    await this.engine.documents.remove(space, doc.id);
    await this.retire(doc.path);
    return doc;
  }

  /** A document's original bytes (null when they are not in the store). */
  readOriginal(doc: DocumentStatus): Promise<OriginalReader | null> {
    return this.originals.read(doc.path);
  }

  /** The record is already gone or replaced: a file that cannot be moved aside is only space, never an error. */
  private async retire(stored: string): Promise<void> {
    await this.originals
      .retire(stored)
      .catch((err: unknown) => this.options.log.warn({ err }, 'no se pudo retirar un original'));
  }

  /**
   * The cached answer to this question, or null (never for a continued conversation). Read once per question: the
   * price (a cached answer costs nothing) and the answer both use what this returned.
   */
  async cachedAnswer(
    space: string,
    question: string,
    conversation: string | undefined,
    scope: QuestionScope = WHOLE_SPACE,
  ): Promise<CachedAnswer | null> {
    if (conversation !== undefined || (await this.config(space)).cache_segundos === 0) return null;
    const hit = await this.cache.get(space, question, scope.cacheKey);
    return hit && { answer: hit.answer, at: hit.cachedAt };
  }

  /** Whether `id` is a conversation of this space, without opening one (a question's check before its charge). */
  hasConversation(space: string, id: string): Promise<boolean> {
    return this.conversations.exists(space, id);
  }

  /** Opens (or continues) a conversation; null when the id is not a conversation of this space. */
  openConversation(space: string, id: string | undefined): Promise<string | null> {
    return this.conversations.open(space, id);
  }

  /** A new conversation holding earlier turns a client sent along (the OpenAI-compatible chat route). */
  openConversationWith(space: string, turns: readonly ChatTurn[]): Promise<string> {
    return this.conversations.openWith(space, turns);
  }

  /** Answers a question: `cached` (from `cachedAnswer`) when there is one, else the engine. */
  async ask(space: string, asked: QuestionToAnswer, signal?: AbortSignal): Promise<AskResult> {
    const { question, conversation, continuing, cached, scope = WHOLE_SPACE } = asked;
    const config = await this.config(space);
    const answer =
      cached?.answer ??
      (await this.engine.ask({
        space,
        question,
        options: answerOptionsOf(config),
        history: continuing ? await this.conversations.history(conversation) : [],
        ...(scope.documentIds ? { documentIds: scope.documentIds } : {}),
        signal,
      }));
    await this.finish(space, question, conversation, answer, !cached && !continuing, config, scope, cached !== null);
    return { conversation, answer, cache: cached ? { hit: true, at: cached.at } : { hit: false } };
  }

  /** The same question as events; the final event carries the whole answer. */
  async *askStream(
    space: string,
    asked: QuestionToAnswer,
    signal: AbortSignal,
  ): AsyncGenerator<AnswerEvent & { cache?: { hit: boolean; at?: string } }> {
    const { question, conversation, continuing, cached, scope = WHOLE_SPACE } = asked;
    const config = await this.config(space);
    if (cached) {
      yield { type: 'sources', sources: cached.answer.sources };
      yield { type: 'delta', text: cached.answer.text };
      await this.finish(space, question, conversation, cached.answer, false, config, scope, true);
      yield { type: 'done', answer: cached.answer, cache: { hit: true, at: cached.at } };
      return;
    }
    const events = this.engine.askStream({
      space,
      question,
      options: answerOptionsOf(config),
      history: continuing ? await this.conversations.history(conversation) : [],
      ...(scope.documentIds ? { documentIds: scope.documentIds } : {}),
      signal,
    });
    for await (const event of events) {
      if (event.type === 'done') {
        await this.finish(space, question, conversation, event.answer, !continuing, config, scope, false);
        yield { ...event, cache: { hit: false } };
      } else {
        yield event;
      }
    }
  }

  clearCache(space: string): Promise<number> {
    return this.cache.clear(space);
  }

  private async finish(
    space: string,
    question: string,
    conversation: string,
    answer: Answer,
    cacheIt: boolean,
    config: RagConfig,
    scope: QuestionScope,
    cached: boolean,
  ): Promise<void> {
    await this.conversations.record(conversation, question, answer, cached);
    if (cacheIt) await this.cache.put(space, question, answer, config.cache_segundos, scope.cacheKey);
  }
}

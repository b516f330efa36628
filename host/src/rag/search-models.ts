// The search models the configuration names — an embedder (local ONNX directory or `/embeddings` endpoint) and a
// reranker (local ONNX cross-encoder or `/rerank` endpoint) — loaded and checked at start-up, and their state for
// `GET /api/health`. Any of them missing or broken degrades the Cerebro (full text; first-stage order) instead of
// stopping it; the details go to the log (never a key), health says what is on and whether something failed.
import type { Logger as PinoLogger } from 'pino';
import {
  DEFAULT_MIN_WORD_SIMILARITY,
  HttpEmbedder,
  HttpReranker,
  OnnxEmbedder,
  OnnxReranker,
  readManifest,
  type Embedder,
  type RerankSettings,
  type Reranker,
} from '../cerebro/index.js';
import type { HostConfig } from '../config/host-config.js';

export type SearchModelsConfig = Pick<
  HostConfig,
  | 'embeddingModelDir'
  | 'embeddingUrl'
  | 'embeddingModel'
  | 'embeddingApiKey'
  | 'embeddingQueryPrefix'
  | 'embeddingPassagePrefix'
  | 'embeddingMinSimilarity'
  | 'rerankModelDir'
  | 'rerankUrl'
  | 'rerankModel'
  | 'rerankApiKey'
  | 'rerankTopN'
  | 'rerankTimeoutMs'
  | 'rerankMinProbability'
>;

/** A search model as the process holds it (`GET /api/modelos`). */
export type LocalModelStanding = 'activo' | 'fallando' | 'no_cargado' | 'sin_configurar';

/** Tracks one model's failures so that health and the log tell when it starts and stops failing. */
class ModelState {
  failure: string | null = null;
  constructor(
    private readonly what: string,
    private readonly log: PinoLogger,
  ) {}

  outcome(failure: string | null): void {
    if (failure && !this.failure) this.log.warn({ err: failure }, `${this.what} falla: se sigue sin él mientras falle`);
    if (!failure && this.failure) this.log.info(`${this.what} vuelve a responder`);
    this.failure = failure;
  }
}

export class SearchModels {
  private readonly embedState: ModelState;
  private readonly rerankState: ModelState;
  private embedLoadFailed = false;
  private rerankLoadFailed = false;
  embedder: Embedder | null = null;
  /** Cosine similarity at which a question word counts as covered by a passage (`CEREBRO_EMBEDDING_MIN_SIMILARITY`). */
  minWordSimilarity = DEFAULT_MIN_WORD_SIMILARITY;
  rerank: RerankSettings | null = null;

  private constructor(log: PinoLogger) {
    this.embedState = new ModelState('el modelo de embeddings', log);
    this.rerankState = new ModelState('el modelo de reordenación', log);
  }

  static async load(config: SearchModelsConfig, log: PinoLogger): Promise<SearchModels> {
    const models = new SearchModels(log);
    const [embedder, reranker] = await Promise.all([
      loadEmbedder(config).catch((err: Error) => {
        models.embedLoadFailed = true;
        log.error(
          { dir: config.embeddingModelDir || undefined, url: config.embeddingUrl || undefined, err: err.message },
          'no se pudo cargar el modelo de embeddings (CEREBRO_EMBEDDING_*): el Cerebro busca solo por texto',
        );
        return null;
      }),
      loadReranker(config).catch((err: Error) => {
        models.rerankLoadFailed = true;
        log.error(
          { dir: config.rerankModelDir || undefined, url: config.rerankUrl || undefined, err: err.message },
          'no se pudo cargar el modelo de reordenación (CEREBRO_RERANK_*): los pasajes quedan en el orden de la búsqueda',
        );
        return null;
      }),
    ]);
    models.embedder = embedder;
    models.minWordSimilarity = config.embeddingMinSimilarity;
    if (reranker) {
      models.rerank = {
        reranker,
        topN: Math.max(2, config.rerankTopN),
        timeoutMs: config.rerankTimeoutMs,
        minProbability: config.rerankMinProbability,
        onOutcome: (failure) => models.rerankState.outcome(failure),
      };
    }
    return models;
  }

  /** How each search model stands now: on, configured but not loaded, or loaded but failing lately. */
  standing(): { embeddings: LocalModelStanding; reordenacion: LocalModelStanding } {
    const of = (on: boolean, loadFailed: boolean, state: ModelState): LocalModelStanding =>
      loadFailed ? 'no_cargado' : !on ? 'sin_configurar' : state.failure ? 'fallando' : 'activo';
    return {
      embeddings: of(this.embedder !== null, this.embedLoadFailed, this.embedState),
      reordenacion: of(this.rerank !== null, this.rerankLoadFailed, this.rerankState),
    };
  }

  /** Told by the retriever whether each question could be embedded. */
  readonly onEmbedderOutcome = (failure: string | null): void => this.embedState.outcome(failure);

  /** The `cerebro` entries of `GET /api/health` about search (no URL, path or key: the log has the details). */
  health(): Record<string, string> {
    const entries: Record<string, string> = { busqueda: this.embedder ? 'hibrida' : 'texto' };
    if (this.embedLoadFailed)
      entries.busqueda_aviso = 'el modelo de embeddings configurado no se pudo cargar (ver el registro)';
    else if (this.embedState.failure)
      entries.busqueda_aviso =
        'la última pregunta se buscó solo por texto: el modelo de embeddings falló (ver el registro)';
    entries.reordenacion = this.rerank ? 'activa' : this.rerankLoadFailed ? 'no disponible' : 'desactivada';
    if (this.rerankLoadFailed)
      entries.reordenacion_aviso = 'el modelo de reordenación configurado no se pudo cargar (ver el registro)';
    else if (this.rerankState.failure)
      entries.reordenacion_aviso =
        'la última reordenación falló o tardó demasiado; se usó el orden de la búsqueda (ver el registro)';
    return entries;
  }
}

async function loadEmbedder(config: SearchModelsConfig): Promise<Embedder | null> {
  const prefixes = async (dir: string | null) => {
    const manifest = dir ? await readManifest(dir) : null;
    return {
      queryPrefix: config.embeddingQueryPrefix || manifest?.queryPrefix || '',
      passagePrefix: config.embeddingPassagePrefix || manifest?.passagePrefix || '',
    };
  };
  if (config.embeddingModelDir)
    return OnnxEmbedder.load(config.embeddingModelDir, await prefixes(config.embeddingModelDir));
  if (config.embeddingUrl) {
    return HttpEmbedder.connect({
      baseUrl: config.embeddingUrl,
      model: config.embeddingModel,
      ...(await prefixes(null)),
      ...(config.embeddingApiKey ? { apiKey: config.embeddingApiKey } : {}),
    });
  }
  return null;
}

async function loadReranker(config: SearchModelsConfig): Promise<Reranker | null> {
  if (config.rerankModelDir) return OnnxReranker.load(config.rerankModelDir);
  if (config.rerankUrl) {
    const reranker = new HttpReranker({
      // The per-question limit is the signal rerankHits passes; this one only bounds the start-up probe.
      baseUrl: config.rerankUrl,
      model: config.rerankModel,
      timeoutMs: Math.max(config.rerankTimeoutMs, 10_000),
      ...(config.rerankApiKey ? { apiKey: config.rerankApiKey } : {}),
    });
    await reranker.score('prueba', ['una prueba', 'otra prueba'], AbortSignal.timeout(10_000));
    return reranker;
  }
  return null;
}

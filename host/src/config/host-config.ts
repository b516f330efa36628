import { resolve } from 'node:path';
import type { ProcessRole } from './process-role.js';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_MIN_WORD_SIMILARITY,
  DEFAULT_RERANK_MIN_PROBABILITY,
  INLINE_MATCH_PASSAGES,
} from '../cerebro/index.js';
import type { LogFormat } from '../logging/logger.js';
import { parseBooleanSetting } from './boolean-setting.js';
import { parseProxyTrust, type ProxyTrust } from './proxy-trust.js';
import { DEFAULT_SPACE_GATE } from '../limits/space-gate.js';
import { DEFAULT_QUOTA } from '../limits/quota-defaults.js';
import { loadWebhookSettings, type WebhookSettings } from '../webhooks/webhook-settings.js';
import { parseDatabaseUrl, parseRedisUrl } from './backend-urls.js';
import { type OriginalsSetting, parseOriginalsSetting } from './originals-setting.js';

/** Everything the host reads from its environment, with the embedded defaults. */
export interface HostConfig {
  /** What this process does among several sharing the data folder (`cerebro serve --rol`). */
  role: ProcessRole;
  /** Directory of the SQLite file and of every file the service keeps. */
  dataDir: string;
  /** `CEREBRO_DATABASE_URL`: the PostgreSQL server shared by several hosts; null: SQLite in the data folder. */
  databaseUrl: string | null;
  /** `CEREBRO_REDIS_URL`: where rate windows, daily quotas and the sign-in throttle count; null: in the database. */
  redisUrl: string | null;
  /** `CEREBRO_ARCHIVOS`: where document originals live (the data folder, a shared folder or an S3-compatible store). */
  originals: OriginalsSetting;
  host: string;
  port: number;
  logLevel: string;
  /** `CEREBRO_LOG_FORMAT`: JSON lines (default) or pretty lines for a terminal. */
  logFormat: LogFormat;
  /** Where the unauthenticated metrics listener binds; `metricsPort` null: no such listener (`/api/metrics` only). */
  metricsHost: string;
  metricsPort: number | null;
  /** Largest JSON body accepted by default, in bytes. */
  jsonBodyLimit: number;
  /** Plugin ids explicitly allowed (empty: every discovered plugin) and denied. */
  pluginsAllow: string[];
  pluginsDeny: string[];
  /** Extra directories searched for plugin packages, besides the workspace `plugins/` and node_modules. */
  pluginPaths: string[];
  /** Whether to look for plugins at all (tests load chosen plugins only). */
  discoverPlugins: boolean;
  /** Deadline for each plugin's `setup`, in milliseconds. */
  pluginInitTimeoutMs: number;
  /** How long a graceful shutdown waits for requests in flight. */
  shutdownGraceMs: number;
  /** How long a client may take to send a request's headers before it is answered 408 and cut off. */
  headersTimeoutMs: number;
  /**
   * How long an idle keep-alive connection stays open. Behind a balancer that reuses its connections to the hosts it
   * must be longer than the balancer's own idle reuse, or a request can be sent on a connection the host is closing.
   */
  keepAliveMs: number;
  /** Which hops are our own proxies, compiled once (`CEREBRO_TRUST_PROXY`); `null`: the socket's address is the caller. */
  trustProxy: ProxyTrust | null;
  /** Counter flush interval (call counts, last use, daily quota). */
  counterFlushMs: number;
  /** Create the demo owner, space and key on first start with an empty database. */
  bootstrapDemo: boolean;
  /** Largest document accepted by load_documents, and files per request. */
  docMaxBytes: number;
  docMaxFiles: number;
  /** Free bytes on the data folder's file system below which health says `degradada`. */
  diskMinFreeBytes: number;
  /** Outbound webhooks: address guard, time limits, retries (`CEREBRO_WEBHOOKS_*`). */
  webhooks: WebhookSettings;
  /** A document still indexing after this long fails with a reason. */
  indexingDeadlineMs: number;
  /** Worker threads extracting document text. */
  indexingThreads: number;
  /** Threads running the full-text match of questions (0: on the main thread). */
  searchThreads: number;
  /** Spaces with fewer passages are matched on the main thread even with search threads (a thread costs more there). */
  searchInlinePassages: number;
  /** Per-space question turns: questions answered at once, waiting at most, and the longest wait (limits/space-gate.ts). */
  questionsPerSpace: number;
  questionQueuePerSpace: number;
  questionWaitMs: number;
  /** Default storage quota of an account (bytes, documents) when the operator set none for it; 0: no limit. */
  quotaBytes: number;
  quotaDocuments: number;
  /** Spaces an owner may hold and still create one from Studio, when the operator set no allowance; 0: none. */
  ownerMaxSpaces: number;
  /** OpenAI-compatible chat endpoint (llama.cpp server, Ollama, vLLM, OpenAI); empty: the embedded engine answers. */
  llmUrl: string;
  llmModel: string;
  llmApiKey: string;
  /** Directory of a local ONNX sentence-embedding model (model.onnx + tokenizer); empty: full-text retrieval. */
  embeddingModelDir: string;
  /** OpenAI-compatible embeddings endpoint (base URL up to `/v1`); used when no model directory is set. */
  embeddingUrl: string;
  embeddingModel: string;
  embeddingApiKey: string;
  /** Prefixes for models trained with them (e5: "query: " and "passage: "); empty: the model directory's own. */
  embeddingQueryPrefix: string;
  embeddingPassagePrefix: string;
  /** Cosine similarity at which a question word counts as covered by a passage (answer-or-decline with embeddings). */
  embeddingMinSimilarity: number;
  /** Reranker: a local ONNX cross-encoder directory, or a `/rerank` endpoint; both empty: no reranking. */
  rerankModelDir: string;
  rerankUrl: string;
  rerankModel: string;
  rerankApiKey: string;
  /** Passages rescored per question, and the time limit of one rescoring. */
  rerankTopN: number;
  rerankTimeoutMs: number;
  /** Studio: a console session ends after this long without a request, and in any case this long after sign-in. */
  sessionIdleMs: number;
  sessionMaxMs: number;
  /** Studio: folder of the prebuilt console (`index.html` and its assets). */
  studioDir: string;
  /** The address owners reach the service at (`https://cerebro.example.com`), for one-time sign-in links. */
  publicUrl: string;
  /** Probability at which the reranker counts a passage as relevant (mapped onto `relevancia_minima`). */
  rerankMinProbability: number;
  /** Days an audit event is kept (0: forever); older ones are purged in the background. */
  auditRetentionDays: number;
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} debe ser un entero no negativo (recibido "${raw}").`);
  }
  return value;
}

function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new Error(`${name} debe ser un número entre 0 y 1 (recibido "${raw}").`);
  return value;
}

const bool = (env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean => {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : parseBooleanSetting(name, raw);
};

function logFormat(raw: string | undefined): LogFormat {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'json') return 'json';
  if (value === 'pretty') return 'pretty';
  throw new Error(`CEREBRO_LOG_FORMAT debe ser json o pretty (recibido "${raw}").`);
}

/** The console's build output inside the host package (`host/studio/dist`), wherever the host is installed. */
const DEFAULT_STUDIO_DIR = fileURLToPath(new URL('../../studio/dist/', import.meta.url));

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = int(env, name, fallback);
  if (value === 0) throw new Error(`${name} debe ser un entero mayor que 0.`);
  return value;
}

/** An http(s) origin without a trailing slash, or empty. */
function publicUrl(raw: string | undefined): string {
  const value = (raw ?? '').trim().replace(/\/+$/, '');
  if (value === '') return '';
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new Error(
      `CEREBRO_PUBLIC_URL debe ser una dirección http(s) como https://cerebro.example.com (recibido "${raw}").`,
    );
  }
  return value;
}

/** Reads `CEREBRO_*` variables. `base` is where relative paths are resolved (the working directory by default). */
export function loadHostConfig(env: NodeJS.ProcessEnv = process.env, base = process.cwd()): HostConfig {
  return {
    role: 'todo',
    dataDir: resolve(base, env.CEREBRO_DATA_DIR ?? 'data'),
    databaseUrl: parseDatabaseUrl(env.CEREBRO_DATABASE_URL),
    redisUrl: parseRedisUrl(env.CEREBRO_REDIS_URL),
    originals: parseOriginalsSetting(env),
    host: env.CEREBRO_HOST ?? '127.0.0.1',
    port: int(env, 'CEREBRO_PORT', 8080),
    logLevel: env.CEREBRO_LOG_LEVEL ?? 'info',
    logFormat: logFormat(env.CEREBRO_LOG_FORMAT),
    metricsHost: env.CEREBRO_METRICS_HOST ?? '127.0.0.1',
    metricsPort: env.CEREBRO_METRICS_PORT ? int(env, 'CEREBRO_METRICS_PORT', 0) : null,
    jsonBodyLimit: int(env, 'CEREBRO_JSON_LIMIT_BYTES', 1024 * 1024),
    pluginsAllow: list(env.CEREBRO_PLUGINS_ALLOW),
    pluginsDeny: list(env.CEREBRO_PLUGINS_DENY),
    pluginPaths: list(env.CEREBRO_PLUGIN_PATHS).map((p) => resolve(base, p)),
    discoverPlugins: bool(env, 'CEREBRO_DISCOVER_PLUGINS', true),
    pluginInitTimeoutMs: int(env, 'CEREBRO_PLUGIN_INIT_TIMEOUT_MS', 15_000),
    shutdownGraceMs: int(env, 'CEREBRO_SHUTDOWN_GRACE_MS', 10_000),
    headersTimeoutMs: positive(env, 'CEREBRO_HEADERS_TIMEOUT_MS', 30_000),
    keepAliveMs: positive(env, 'CEREBRO_KEEPALIVE_MS', 5_000),
    trustProxy: parseProxyTrust('CEREBRO_TRUST_PROXY', env.CEREBRO_TRUST_PROXY),
    counterFlushMs: int(env, 'CEREBRO_COUNTER_FLUSH_MS', 1_000),
    bootstrapDemo: bool(env, 'CEREBRO_BOOTSTRAP_DEMO', true),
    docMaxBytes: int(env, 'CEREBRO_DOC_MAX_BYTES', 50 * 1024 * 1024),
    docMaxFiles: int(env, 'CEREBRO_DOC_MAX_FILES', 20),
    diskMinFreeBytes: int(env, 'CEREBRO_DISK_MIN_FREE_BYTES', 512 * 1024 * 1024),
    webhooks: loadWebhookSettings(env),
    indexingDeadlineMs: int(env, 'CEREBRO_INDEXING_DEADLINE_MS', 10 * 60_000),
    indexingThreads: int(env, 'CEREBRO_INDEXING_THREADS', 1),
    searchThreads: int(env, 'CEREBRO_SEARCH_THREADS', 2),
    searchInlinePassages: int(env, 'CEREBRO_SEARCH_INLINE_PASSAGES', INLINE_MATCH_PASSAGES),
    questionsPerSpace: positive(env, 'CEREBRO_QUESTIONS_PER_SPACE', DEFAULT_SPACE_GATE.concurrency),
    questionQueuePerSpace: int(env, 'CEREBRO_QUESTION_QUEUE_PER_SPACE', DEFAULT_SPACE_GATE.queue),
    questionWaitMs: positive(env, 'CEREBRO_QUESTION_WAIT_MS', DEFAULT_SPACE_GATE.maxWaitMs),
    quotaBytes: int(env, 'CEREBRO_QUOTA_BYTES', DEFAULT_QUOTA.bytes),
    quotaDocuments: int(env, 'CEREBRO_QUOTA_DOCUMENTS', DEFAULT_QUOTA.documents),
    ownerMaxSpaces: int(env, 'CEREBRO_OWNER_MAX_SPACES', 0),
    llmUrl: env.CEREBRO_LLM_URL ?? '',
    llmModel: env.CEREBRO_LLM_MODEL ?? '',
    llmApiKey: env.CEREBRO_LLM_API_KEY ?? '',
    embeddingModelDir: env.CEREBRO_EMBEDDING_MODEL_DIR ? resolve(base, env.CEREBRO_EMBEDDING_MODEL_DIR) : '',
    embeddingUrl: env.CEREBRO_EMBEDDING_URL ?? '',
    embeddingModel: env.CEREBRO_EMBEDDING_MODEL ?? '',
    embeddingApiKey: env.CEREBRO_EMBEDDING_API_KEY ?? '',
    embeddingQueryPrefix: env.CEREBRO_EMBEDDING_QUERY_PREFIX ?? '',
    embeddingPassagePrefix: env.CEREBRO_EMBEDDING_PASSAGE_PREFIX ?? '',
    embeddingMinSimilarity: fraction(env, 'CEREBRO_EMBEDDING_MIN_SIMILARITY', DEFAULT_MIN_WORD_SIMILARITY),
    rerankModelDir: env.CEREBRO_RERANK_MODEL_DIR ? resolve(base, env.CEREBRO_RERANK_MODEL_DIR) : '',
    rerankUrl: env.CEREBRO_RERANK_URL ?? '',
    rerankModel: env.CEREBRO_RERANK_MODEL ?? '',
    rerankApiKey: env.CEREBRO_RERANK_API_KEY ?? '',
    rerankTopN: int(env, 'CEREBRO_RERANK_TOP_N', 20),
    rerankTimeoutMs: int(env, 'CEREBRO_RERANK_TIMEOUT_MS', 3_000),
    sessionIdleMs: positive(env, 'CEREBRO_SESSION_IDLE_MINUTES', 12 * 60) * 60_000,
    sessionMaxMs: positive(env, 'CEREBRO_SESSION_MAX_DAYS', 7) * 86_400_000,
    studioDir: env.CEREBRO_STUDIO_DIR ? resolve(base, env.CEREBRO_STUDIO_DIR) : DEFAULT_STUDIO_DIR,
    publicUrl: publicUrl(env.CEREBRO_PUBLIC_URL),
    rerankMinProbability: fraction(env, 'CEREBRO_RERANK_MIN_PROBABILITY', DEFAULT_RERANK_MIN_PROBABILITY),
    auditRetentionDays: int(env, 'CEREBRO_AUDIT_RETENTION_DAYS', 365),
  };
}

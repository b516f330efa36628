// Sentence embeddings from an OpenAI-compatible `/embeddings` endpoint (llama.cpp server, Ollama, vLLM, Hugging Face
// TEI, OpenAI): texts in batches, vectors back in input order, L2-normalised here because not every server does.
import type { Embedder } from './embedder.js';
import { ModelEndpointError, postJson, type EndpointConfig } from './http-json.js';

export interface HttpEmbedderConfig extends Partial<EndpointConfig> {
  baseUrl: string;
  /** The `model` field of the request (Ollama and vLLM need it; llama.cpp and TEI ignore it). */
  model: string;
  /** For models trained with prefixes (e5: "query: ", "passage: "). */
  queryPrefix?: string;
  passagePrefix?: string;
  /** Texts per request (default 32). */
  batch?: number;
  /** Time limit of a question's embedding (default 10 s: past it the question is answered on full text). */
  queryTimeoutMs?: number;
}

interface EmbeddingsBody {
  data?: { index?: number; embedding?: unknown }[];
}

function unit(values: unknown, expected: number): Float32Array {
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    !values.every((x) => typeof x === 'number' && Number.isFinite(x))
  ) {
    throw new ModelEndpointError('el servidor de embeddings devolvió un vector no numérico');
  }
  if (expected > 0 && values.length !== expected) {
    throw new ModelEndpointError(
      `el servidor de embeddings devolvió ${values.length} dimensiones en vez de ${expected}`,
    );
  }
  const v = Float32Array.from(values as number[]);
  const norm = Math.hypot(...v) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

export class HttpEmbedder implements Embedder {
  private constructor(
    readonly id: string,
    readonly dimensions: number,
    private readonly config: HttpEmbedderConfig & EndpointConfig,
  ) {}

  /** Probes the endpoint with one text: it must answer, and its vector size becomes the store's dimension. */
  static async connect(config: HttpEmbedderConfig): Promise<HttpEmbedder> {
    const full = { timeoutMs: 60_000, ...config };
    const probe = new HttpEmbedder('', 0, full);
    // As a passage: the generous limit, since some servers (Ollama) load the model on the first request.
    const [vector] = await probe.embed(['prueba'], 'passage');
    // Identity: the model name and the vector size (the URL may change without the model changing).
    return new HttpEmbedder(`http:${config.model || 'default'}:${vector!.length}`, vector!.length, full);
  }

  async embed(texts: readonly string[], kind: 'query' | 'passage'): Promise<Float32Array[]> {
    const prefix = (kind === 'query' ? this.config.queryPrefix : this.config.passagePrefix) ?? '';
    const batch = this.config.batch ?? 32;
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batch) {
      const input = texts.slice(start, start + batch).map((t) => prefix + t);
      const limit =
        kind === 'query' ? { ...this.config, timeoutMs: this.config.queryTimeoutMs ?? 10_000 } : this.config;
      const body = (await postJson(limit, '/embeddings', {
        model: this.config.model,
        input,
        encoding_format: 'float',
      })) as EmbeddingsBody;
      const data = Array.isArray(body?.data) ? body.data : [];
      if (data.length !== input.length)
        throw new ModelEndpointError(
          `el servidor de embeddings devolvió ${data.length} vectores para ${input.length} textos`,
        );
      const ordered = data.every((d) => typeof d.index === 'number')
        ? [...data].sort((a, b) => a.index! - b.index!)
        : data;
      for (const d of ordered) out.push(unit(d.embedding, this.dimensions));
    }
    return out;
  }
}

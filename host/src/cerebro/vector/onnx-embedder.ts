// Sentence embeddings from a local ONNX model directory (a BERT or XLM-RoBERTa family encoder exported to ONNX,
// with its tokenizer): subword tokens in, mean-pooled and L2-normalised vectors out. Runs on onnxruntime-node's CPU
// backend; nothing is downloaded, the model must already be on disk.
import { loadOnnxRuntime, type OnnxRuntime } from '../onnx-runtime.js';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Embedder } from './embedder.js';
import { loadTokenizer, type SubwordTokenizer } from './tokenizer-files.js';

export interface OnnxEmbedderOptions {
  /** Longest input in tokens (default 256). */
  maxTokens?: number;
  /** Prepended to questions and to passages, for models trained with prefixes (e5: "query: ", "passage: "). */
  queryPrefix?: string;
  passagePrefix?: string;
  /** CPU threads for one inference (default 1: the machine is shared with the HTTP server). */
  threads?: number;
}

type Ort = OnnxRuntime;
type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;

/** Where a model directory may hold its ONNX file (Hugging Face layouts, the transformers.js one included). */
export const MODEL_FILES = ['model.onnx', 'onnx/model.onnx', 'model_quantized.onnx', 'onnx/model_quantized.onnx'];

/** Identity of a model file without hashing hundreds of MB: size plus a hash of its first megabyte. */
export async function onnxFingerprint(path: string): Promise<string> {
  const { size } = await stat(path);
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, 1 << 20));
    await handle.read(head, 0, head.length, 0);
    return `${size.toString(36)}-${createHash('sha256').update(head).digest('hex').slice(0, 12)}`;
  } finally {
    await handle.close();
  }
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let j = 0; j < v.length; j++) v[j]! /= norm;
  return v;
}

export class OnnxEmbedder implements Embedder {
  private constructor(
    readonly id: string,
    readonly dimensions: number,
    private readonly ort: Ort,
    private readonly session: Session,
    private readonly tokenizer: SubwordTokenizer,
    private readonly options: Required<OnnxEmbedderOptions>,
  ) {}

  /**
   * Loads `model.onnx` (or `onnx/model.onnx`) and the tokenizer (tokenizer.json, Unigram or WordPiece, else
   * vocab.txt) from a directory; probes the vector size.
   */
  static async load(dir: string, options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
    const modelPath = MODEL_FILES.map((f) => join(dir, f)).find((p) => existsSync(p));
    if (!modelPath) throw new Error(`no ONNX model in ${dir} (expected one of ${MODEL_FILES.join(', ')})`);
    const tokenizer = await loadTokenizer(dir);
    const ort = await loadOnnxRuntime();
    const threads = options.threads ?? 1;
    const session = await ort.InferenceSession.create(modelPath, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const full: Required<OnnxEmbedderOptions> = {
      maxTokens: 256,
      queryPrefix: '',
      passagePrefix: '',
      threads,
      ...options,
    };
    const id = `${basename(dir)}:${await onnxFingerprint(modelPath)}`;
    const probe = new OnnxEmbedder(id, 0, ort, session, tokenizer, full);
    const [vector] = await probe.embed(['prueba'], 'query');
    return new OnnxEmbedder(id, vector!.length, ort, session, tokenizer, full);
  }

  async embed(texts: readonly string[], kind: 'query' | 'passage'): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const prefix = kind === 'query' ? this.options.queryPrefix : this.options.passagePrefix;
    const encoded = texts.map((t) => this.tokenizer.encode(prefix + t, this.options.maxTokens));
    const seq = Math.max(...encoded.map((e) => e.length));
    const batch = encoded.length;
    const ids = new BigInt64Array(batch * seq).fill(BigInt(this.tokenizer.pad));
    const mask = new BigInt64Array(batch * seq);
    encoded.forEach((e, b) =>
      e.forEach((id, i) => {
        ids[b * seq + i] = BigInt(id);
        mask[b * seq + i] = 1n;
      }),
    );

    const feeds: Record<string, InstanceType<Ort['Tensor']>> = {};
    for (const name of this.session.inputNames) {
      if (name === 'input_ids') feeds[name] = new this.ort.Tensor('int64', ids, [batch, seq]);
      else if (name === 'attention_mask') feeds[name] = new this.ort.Tensor('int64', mask, [batch, seq]);
      else if (name === 'token_type_ids')
        feeds[name] = new this.ort.Tensor('int64', new BigInt64Array(batch * seq), [batch, seq]);
      else throw new Error(`unsupported model input "${name}"`);
    }
    const results = await this.session.run(feeds);
    const output = results[this.session.outputNames[0]!]!;
    const data = output.data as Float32Array;
    const dims = output.dims;
    const vectors: Float32Array[] = [];
    if (dims.length === 2) {
      // Already pooled (sentence_embedding output).
      const d = dims[1]!;
      for (let b = 0; b < batch; b++) vectors.push(data.slice(b * d, (b + 1) * d));
    } else {
      // Token states [batch, seq, dim]: mean over real (unmasked) tokens.
      const d = dims[2]!;
      for (let b = 0; b < batch; b++) {
        const v = new Float32Array(d);
        const n = encoded[b]!.length;
        for (let i = 0; i < n; i++) {
          const base = (b * seq + i) * d;
          for (let j = 0; j < d; j++) v[j]! += data[base + j]!;
        }
        for (let j = 0; j < d; j++) v[j]! /= n;
        vectors.push(v);
      }
    }
    return vectors.map(normalise);
  }
}

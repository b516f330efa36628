// A local ONNX cross-encoder reranker (BERT family: mmarco-mMiniLM; XLM-RoBERTa family: bge-reranker-v2-m3,
// jina-reranker-v2): the question and a passage are encoded as one pair, the model gives one logit per pair.
// Runs on onnxruntime-node's CPU backend; nothing is downloaded.
import { loadOnnxRuntime, type OnnxRuntime } from '../onnx-runtime.js';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadTokenizer, type SubwordTokenizer } from '../vector/tokenizer-files.js';
import { UnigramTokenizer } from '../vector/unigram.js';
import { MODEL_FILES, onnxFingerprint } from '../vector/onnx-embedder.js';
import { sigmoid, type Reranker } from './reranker.js';

type Ort = OnnxRuntime;
type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;

export interface OnnxRerankerOptions {
  /** Longest pair in tokens (default 512); the question keeps at most half. */
  maxTokens?: number;
  threads?: number;
}

interface Pair {
  ids: number[];
  types: number[];
}

export class OnnxReranker implements Reranker {
  /** The model run in flight: one that outlived its time limit still holds the CPU, so no second one starts. */
  private busy: Promise<unknown> | null = null;

  private constructor(
    readonly id: string,
    private readonly ort: Ort,
    private readonly session: Session,
    private readonly tokenizer: SubwordTokenizer,
    private readonly maxTokens: number,
  ) {}

  static async load(dir: string, options: OnnxRerankerOptions = {}): Promise<OnnxReranker> {
    const modelPath = MODEL_FILES.map((f) => join(dir, f)).find((p) => existsSync(p));
    if (!modelPath) throw new Error(`no ONNX model in ${dir} (expected one of ${MODEL_FILES.join(', ')})`);
    const tokenizer = await loadTokenizer(dir);
    const ort = await loadOnnxRuntime();
    const session = await ort.InferenceSession.create(modelPath, {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const reranker = new OnnxReranker(
      `${basename(dir)}:${await onnxFingerprint(modelPath)}`,
      ort,
      session,
      tokenizer,
      options.maxTokens ?? 512,
    );
    await reranker.score('prueba', ['una prueba'], AbortSignal.timeout(60_000)); // fails now, not at the first question
    return reranker;
  }

  /** `[CLS] q [SEP] p [SEP]` with segment ids for BERT; `<s> q </s></s> p </s>` for XLM-R (no segments). */
  private pair(query: string, passage: string): Pair {
    const q = this.tokenizer.encode(query, Math.floor(this.maxTokens / 2));
    if (this.tokenizer instanceof UnigramTokenizer) {
      const p = this.tokenizer.encode(passage, this.maxTokens - q.length);
      const ids = [...q, this.tokenizer.eos, ...p.slice(1)];
      return { ids, types: ids.map(() => 0) };
    }
    const p = this.tokenizer.encode(passage, this.maxTokens - q.length + 1).slice(1);
    return { ids: [...q, ...p], types: [...q.map(() => 0), ...p.map(() => 1)] };
  }

  async score(query: string, passages: readonly string[], signal: AbortSignal): Promise<number[]> {
    if (passages.length === 0) return [];
    signal.throwIfAborted();
    // Checked before tokenising: a refused question should cost nothing while the CPU is taken.
    if (this.busy) throw new Error('el modelo de reordenación sigue ocupado con una pregunta anterior');
    const pairs = passages.map((p) => this.pair(query, p));
    const seq = Math.max(...pairs.map((p) => p.ids.length));
    const batch = pairs.length;
    const ids = new BigInt64Array(batch * seq).fill(BigInt(this.tokenizer.pad));
    const mask = new BigInt64Array(batch * seq);
    const types = new BigInt64Array(batch * seq);
    pairs.forEach((p, b) =>
      p.ids.forEach((id, i) => {
        ids[b * seq + i] = BigInt(id);
        mask[b * seq + i] = 1n;
        types[b * seq + i] = BigInt(p.types[i]!);
      }),
    );
    const feeds: Record<string, InstanceType<Ort['Tensor']>> = {};
    for (const name of this.session.inputNames) {
      const data =
        name === 'input_ids' ? ids : name === 'attention_mask' ? mask : name === 'token_type_ids' ? types : null;
      if (!data) throw new Error(`unsupported model input "${name}"`);
      feeds[name] = new this.ort.Tensor('int64', data, [batch, seq]);
    }
    // onnxruntime cannot be interrupted mid-run: the caller's time limit wins the race and the result is dropped.
    const aborted = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
    aborted.catch(() => {}); // a time limit that fires after the model answered is nobody's error
    const run = this.session.run(feeds);
    this.busy = run;
    // Registered before the race below, so it runs before this call's caller resumes.
    const free = () => {
      if (this.busy === run) this.busy = null;
    };
    run.then(free, free);
    const results = await Promise.race([run, aborted]);
    const output = results[this.session.outputNames[0]!]!;
    const data = output.data as Float32Array;
    const width = output.dims.length > 1 ? output.dims[output.dims.length - 1]! : 1;
    // One logit per pair (sigmoid); two-class heads give the probability of "relevant" (softmax of class 1).
    return pairs.map((_, b) => (width === 2 ? sigmoid(data[b * 2 + 1]! - data[b * 2]!) : sigmoid(data[b * width]!)));
  }
}

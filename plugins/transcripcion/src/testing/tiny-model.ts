import { closeSync, openSync, writeSync } from 'node:fs';
import {
  GGML_MAGIC,
  GGML_TYPE_F16,
  HPARAM_ORDER,
  expectedTensors,
  tensorDataBytes,
  type WhisperHparams,
} from '../engine/ggml-format.js';

/**
 * Writes a ggml Whisper model with consistent tensor shapes and seeded random weights. It has no linguistic
 * value; it exists so tests and the bench can exercise model validation, loading and the full inference path
 * where no real weights can be downloaded. `realTiny` gives the exact shapes of Whisper tiny (for timings).
 */
export interface TinyModelOptions {
  state?: number;
  heads?: number;
  layers?: number;
  /** 1 = f16 matrices, as the published models (all-f32 files are rejected: this whisper.cpp cannot run them). */
  ftype?: 0 | 1;
  seed?: number;
  /**
   * Makes the decoder answer every 30 s window with the same three tokens (one word, the 30.00 s timestamp,
   * end-of-text), so the work per window is the encoder plus three decoder steps whatever the audio: a fixed,
   * comparable load for benchmarks. Random decoders otherwise emit token runs whose length changes with the
   * tiniest numeric difference (and can stall whisper.cpp's window seeking).
   */
  endAtOnce?: boolean;
}

export const REAL_TINY: Required<TinyModelOptions> = {
  state: 384,
  heads: 6,
  layers: 4,
  ftype: 1,
  seed: 7,
  endAtOnce: true,
};

/**
 * Fixed logits for endAtOnce (multilingual ids: end-of-text 50257, timestamps 50364 = 0.00 s … 51864 = 30.00 s).
 * whisper.cpp's sampling rules then give: step 0 the word (timestamps above 1 s and end-of-text are masked);
 * step 1 a timestamp, because the timestamps' summed probability beats every text token, and the highest is
 * 30.00 s; step 2 end-of-text, since text is masked after a lone timestamp and only 30.00 s remains allowed.
 */
const FIXED_WORD = 1000;

function fixedLogit(token: number): number | undefined {
  if (token === FIXED_WORD) return 25;
  if (token === 50257) return 20;
  if (token === 51864) return 18.5;
  if (token >= 50364 && token < 51864) return 18;
  return undefined;
}

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  /** xorshift32 in [0, 1). */
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s / 0x1_0000_0000;
  }
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** IEEE 754 binary32 → binary16 bits, round-to-nearest (the weights are small; subnormals flush to zero). */
function toHalf(v: number): number {
  f32[0] = v;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  const mant = x & 0x7fffff;
  let h = sign | (exp << 10) | (mant >>> 13);
  if (mant & 0x1000) h += 1;
  return h;
}

function i32s(values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeInt32LE(v, i * 4));
  return b;
}

/** Short pseudo-words so that whatever the random decoder emits is printable text. */
function vocabulary(count: number, rng: Rng): Buffer[] {
  const syllables = ['la', 'me', 'so', 'ta', 'ri', 'no', 'cu', 'pe', 'da', 'vi', 'ro', 'sa', 'ne', 'lo', 'mi', 'te'];
  const words: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    let w = i < 256 ? String.fromCharCode(i >= 33 && i < 127 ? i : 97 + (i % 26)) : ' ';
    if (i >= 256) for (let k = 0; k < 1 + (i % 3); k++) w += syllables[Math.floor(rng.next() * syllables.length)];
    // whisper.cpp looks these up by text while sampling (blank and word-initial punctuation suppression).
    if (i === 220) w = ' ';
    if (i === 221) w = ' -';
    if (i === 222) w = " '";
    words.push(Buffer.from(w, 'latin1'));
  }
  return words;
}

/** What a generated model is; `fixedWord` is the text an endAtOnce model writes for every 30 s window. */
export interface TinyModel {
  hparams: WhisperHparams;
  fixedWord: string;
}

export function writeTinyModel(path: string, options: TinyModelOptions = {}): TinyModel {
  const state = options.state ?? 64;
  const heads = options.heads ?? 2;
  const layers = options.layers ?? 4;
  const rng = new Rng(options.seed ?? 1);
  const h: WhisperHparams = {
    nVocab: 51865, // multilingual: language tokens (es, en…) exist
    nAudioCtx: 1500,
    nAudioState: state,
    nAudioHead: heads,
    nAudioLayer: layers,
    nTextCtx: 448,
    nTextState: state,
    nTextHead: heads,
    nTextLayer: layers,
    nMels: 80,
    ftype: options.ftype ?? 1,
  };
  let fixedWord = '';
  const fd = openSync(path, 'w');
  try {
    const header = Buffer.alloc(4);
    header.writeUInt32LE(GGML_MAGIC, 0);
    writeSync(fd, header);
    writeSync(fd, i32s(HPARAM_ORDER.map((k) => h[k])));

    const filters = new Float32Array(80 * 201);
    for (let i = 0; i < filters.length; i++) filters[i] = rng.next() * 0.02;
    writeSync(fd, i32s([80, 201]));
    writeSync(fd, Buffer.from(filters.buffer));

    const words = vocabulary(50257, rng);
    fixedWord = words[FIXED_WORD]!.toString('latin1');
    writeSync(fd, i32s([words.length]));
    for (const w of words) {
      const len = Buffer.alloc(4);
      len.writeUInt32LE(w.length, 0);
      writeSync(fd, len);
      writeSync(fd, w);
    }

    // endAtOnce: the final LayerNorm outputs the constant vector b (gain 0, bias b), and the tied output
    // projection gets rows c·b/|b|² for the tokens of fixedLogit, so their logits are exactly c at every step
    // (the others stay near N(0, 1)).
    const b = Array.from({ length: state }, () => rng.normal());
    const b2 = b.reduce((acc, v) => acc + v * v, 0);
    for (const t of expectedTensors(h)) {
      const name = Buffer.from(t.name, 'latin1');
      writeSync(fd, i32s([t.shape.length, name.length, t.type, ...t.shape]));
      writeSync(fd, name);
      const n = t.shape.reduce((x, y) => x * y, 1);
      // LayerNorm gains 1, biases 0, the rest small Gaussian values: keeps activations finite.
      let k = 0;
      const fill =
        options.endAtOnce && t.name === 'decoder.ln.weight'
          ? () => 0
          : options.endAtOnce && t.name === 'decoder.ln.bias'
            ? () => b[k++]!
            : options.endAtOnce && t.name === 'decoder.token_embedding.weight'
              ? () => {
                  const c = fixedLogit(Math.floor(k / state));
                  const v = c === undefined ? rng.normal() * 0.05 : (c * b[k % state]!) / b2;
                  k++;
                  return v;
                }
              : t.name.endsWith('ln.weight') || t.name.endsWith('ln_post.weight')
                ? () => 1
                : t.name.endsWith('.bias')
                  ? () => 0
                  : () => rng.normal() * 0.05;
      const data = Buffer.alloc(tensorDataBytes(t.shape, t.type));
      if (t.type === GGML_TYPE_F16) for (let i = 0; i < n; i++) data.writeUInt16LE(toHalf(fill()), i * 2);
      else for (let i = 0; i < n; i++) data.writeFloatLE(fill(), i * 4);
      writeSync(fd, data);
    }
  } finally {
    closeSync(fd);
  }
  return { hparams: h, fixedWord };
}

/**
 * The ggml Whisper model file layout, as whisper.cpp's loader (`whisper_model_load`) reads it:
 *   u32 magic 'ggml' · 11 × i32 hparams · mel filters (i32 n_mel, i32 n_fft, f32[n_mel·n_fft]) ·
 *   vocabulary (i32 count, then count × (u32 length, bytes)) · tensors until end of file, each
 *   (i32 n_dims, i32 name_length, i32 type, i32 ne[n_dims], name, raw data).
 * Shared by the validator (which must accept exactly what the loader accepts: the loader crashes the process
 * on a file it rejects) and by the test model generator.
 */
export const GGML_MAGIC = 0x67676d6c;

export interface WhisperHparams {
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioHead: number;
  nAudioLayer: number;
  nTextCtx: number;
  nTextState: number;
  nTextHead: number;
  nTextLayer: number;
  nMels: number;
  ftype: number;
}

export const HPARAM_ORDER: readonly (keyof WhisperHparams)[] = [
  'nVocab',
  'nAudioCtx',
  'nAudioState',
  'nAudioHead',
  'nAudioLayer',
  'nTextCtx',
  'nTextState',
  'nTextHead',
  'nTextLayer',
  'nMels',
  'ftype',
];

/** ggml tensor types used by Whisper files: block size (elements) and bytes per block. */
export const GGML_TYPES: Readonly<Record<number, { name: string; block: number; bytes: number }>> = {
  0: { name: 'f32', block: 1, bytes: 4 },
  1: { name: 'f16', block: 1, bytes: 2 },
  2: { name: 'q4_0', block: 32, bytes: 18 },
  3: { name: 'q4_1', block: 32, bytes: 20 },
  6: { name: 'q5_0', block: 32, bytes: 22 },
  7: { name: 'q5_1', block: 32, bytes: 24 },
  8: { name: 'q8_0', block: 32, bytes: 34 },
  10: { name: 'q2_k', block: 256, bytes: 84 },
  11: { name: 'q3_k', block: 256, bytes: 110 },
  12: { name: 'q4_k', block: 256, bytes: 144 },
  13: { name: 'q5_k', block: 256, bytes: 176 },
  14: { name: 'q6_k', block: 256, bytes: 210 },
};

/** ggml's file type (hparam `ftype`, modulo the quantisation version factor 1000) → type of the big matrices. */
export const FTYPE_TO_TYPE: Readonly<Record<number, number>> = {
  0: 0,
  1: 1,
  2: 2,
  3: 3,
  7: 8,
  8: 6,
  9: 7,
  10: 10,
  11: 11,
  12: 12,
  13: 13,
  14: 14,
};

export const GGML_TYPE_F32 = 0;
export const GGML_TYPE_F16 = 1;

export interface TensorSpec {
  name: string;
  /** ggml order: ne[0] is the fastest-varying dimension. */
  shape: number[];
  type: number;
}

/** Every tensor the loader expects for these hparams, with the shape and type it will check. */
export function expectedTensors(h: WhisperHparams): TensorSpec[] {
  const wtype = FTYPE_TO_TYPE[h.ftype % 1000];
  if (wtype === undefined) throw new Error(`unknown ftype ${h.ftype}`);
  const vtype = wtype === GGML_TYPE_F32 ? GGML_TYPE_F32 : GGML_TYPE_F16;
  const f32 = GGML_TYPE_F32;
  const out: TensorSpec[] = [];
  const add = (name: string, type: number, ...shape: number[]): void => {
    out.push({ name, type, shape });
  };
  // Layers of both stacks share self-attention and MLP; decoder layers add cross-attention.
  const block = (p: string, n: number, cross: boolean): void => {
    const parts = cross ? ['attn', 'cross_attn'] : ['attn'];
    add(`${p}mlp_ln.weight`, f32, n);
    add(`${p}mlp_ln.bias`, f32, n);
    add(`${p}mlp.0.weight`, wtype, n, 4 * n);
    add(`${p}mlp.0.bias`, f32, 4 * n);
    add(`${p}mlp.2.weight`, wtype, 4 * n, n);
    add(`${p}mlp.2.bias`, f32, n);
    for (const at of parts) {
      add(`${p}${at}_ln.weight`, f32, n);
      add(`${p}${at}_ln.bias`, f32, n);
      add(`${p}${at}.query.weight`, wtype, n, n);
      add(`${p}${at}.query.bias`, f32, n);
      add(`${p}${at}.key.weight`, wtype, n, n);
      add(`${p}${at}.value.weight`, wtype, n, n);
      add(`${p}${at}.value.bias`, f32, n);
      add(`${p}${at}.out.weight`, wtype, n, n);
      add(`${p}${at}.out.bias`, f32, n);
    }
  };
  const a = h.nAudioState;
  add('encoder.positional_embedding', f32, a, h.nAudioCtx);
  add('encoder.conv1.weight', vtype, 3, h.nMels, a);
  add('encoder.conv1.bias', f32, 1, a);
  add('encoder.conv2.weight', vtype, 3, a, a);
  add('encoder.conv2.bias', f32, 1, a);
  add('encoder.ln_post.weight', f32, a);
  add('encoder.ln_post.bias', f32, a);
  for (let i = 0; i < h.nAudioLayer; i++) block(`encoder.blocks.${i}.`, a, false);
  const t = h.nTextState;
  add('decoder.positional_embedding', f32, t, h.nTextCtx);
  add('decoder.token_embedding.weight', wtype, t, h.nVocab);
  add('decoder.ln.weight', f32, t);
  add('decoder.ln.bias', f32, t);
  for (let i = 0; i < h.nTextLayer; i++) block(`decoder.blocks.${i}.`, t, true);
  return out;
}

export function tensorDataBytes(shape: readonly number[], type: number): number {
  const info = GGML_TYPES[type];
  if (!info) throw new Error(`unknown tensor type ${type}`);
  const n = shape.reduce((x, y) => x * y, 1);
  return (n / info.block) * info.bytes;
}

/** The model size names whisper.cpp gives by encoder depth. */
export function modelSizeName(nAudioLayer: number): string {
  return (
    ({ 4: 'tiny', 6: 'base', 12: 'small', 24: 'medium', 32: 'large' } as Record<number, string>)[nAudioLayer] ??
    'desconocido'
  );
}

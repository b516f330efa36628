import { open, type FileHandle } from 'node:fs/promises';
import {
  GGML_MAGIC,
  GGML_TYPES,
  FTYPE_TO_TYPE,
  HPARAM_ORDER,
  expectedTensors,
  modelSizeName,
  tensorDataBytes,
  type WhisperHparams,
} from './ggml-format.js';

export interface ModelFileInfo {
  path: string;
  sizeBytes: number;
  /** tiny, base, small, medium, large or `desconocido`. */
  sizeName: string;
  multilingual: boolean;
  hparams: WhisperHparams;
  tensorCount: number;
}

/** A model file that is missing or that whisper.cpp would fail to load (and crash on). */
export class ModelFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelFileError';
  }
}

/** Sequential reader over a file with a read-ahead buffer; `skip` seeks past tensor data without reading it. */
class Cursor {
  private buf = Buffer.alloc(1 << 20);
  private start = 0; // file offset of buf[0]
  private end = 0; // file offset one past the valid bytes in buf
  pos = 0;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  private async ensure(n: number): Promise<void> {
    if (this.pos + n > this.size)
      throw new ModelFileError('el archivo del modelo termina antes de tiempo (incompleto)');
    if (this.pos >= this.start && this.pos + n <= this.end) return;
    if (n > this.buf.length) this.buf = Buffer.alloc(n);
    const { bytesRead } = await this.handle.read(this.buf, 0, this.buf.length, this.pos);
    this.start = this.pos;
    this.end = this.pos + bytesRead;
    if (this.pos + n > this.end) throw new ModelFileError('no se pudo leer el archivo del modelo');
  }

  async i32(): Promise<number> {
    await this.ensure(4);
    const v = this.buf.readInt32LE(this.pos - this.start);
    this.pos += 4;
    return v;
  }

  async u32(): Promise<number> {
    await this.ensure(4);
    const v = this.buf.readUInt32LE(this.pos - this.start);
    this.pos += 4;
    return v;
  }

  async text(n: number): Promise<string> {
    await this.ensure(n);
    const s = this.buf.toString('latin1', this.pos - this.start, this.pos - this.start + n);
    this.pos += n;
    return s;
  }

  skip(n: number): void {
    if (this.pos + n > this.size)
      throw new ModelFileError('el archivo del modelo termina antes de tiempo (incompleto)');
    this.pos += n;
  }
}

function checkHparams(h: WhisperHparams): void {
  const bad = (what: string): never => {
    throw new ModelFileError(`parámetros del modelo no válidos (${what})`);
  };
  // Special-token ids (end of text, timestamps…) sit above 50256: a smaller vocabulary cannot work.
  if (h.nVocab < 51864 || h.nVocab > 52_000) bad(`n_vocab=${h.nVocab}`);
  // whisper.cpp always feeds 30 s windows (3000 mel frames → 1500 encoder positions, 448 text positions).
  if (h.nAudioCtx !== 1500) bad(`n_audio_ctx=${h.nAudioCtx}`);
  if (h.nTextCtx !== 448) bad(`n_text_ctx=${h.nTextCtx}`);
  if (h.nMels !== 80 && h.nMels !== 128) bad(`n_mels=${h.nMels}`);
  if (h.nAudioState !== h.nTextState) bad('n_audio_state distinto de n_text_state');
  for (const [state, head, layers, tag] of [
    [h.nAudioState, h.nAudioHead, h.nAudioLayer, 'audio'],
    [h.nTextState, h.nTextHead, h.nTextLayer, 'text'],
  ] as const) {
    if (state < 8 || state > 4096 || head < 1 || head > 64 || state % head !== 0) bad(`n_${tag}_state/n_${tag}_head`);
    if (layers < 1 || layers > 64) bad(`n_${tag}_layer=${layers}`);
  }
  if (FTYPE_TO_TYPE[h.ftype % 1000] === undefined || h.ftype < 0) bad(`ftype=${h.ftype}`);
  // An all-f32 file loads, but this whisper.cpp's convolution asserts f16 weights and aborts the process.
  if (h.ftype % 1000 === 0) bad('ftype=0 (f32): esta versión de whisper.cpp solo ejecuta modelos f16 o cuantizados');
}

/**
 * Checks, without loading it, that `path` is a ggml Whisper model whisper.cpp will accept: magic, sane hparams,
 * mel filters, vocabulary, and every tensor present once with the name, type and shape the loader expects, and
 * the file ending exactly after the last one. Throws `ModelFileError` (Spanish message) otherwise.
 */
export async function validateModelFile(path: string): Promise<ModelFileInfo> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ModelFileError(
      code === 'ENOENT'
        ? 'no hay ningún modelo instalado en la ruta configurada'
        : `no se puede abrir el modelo (${code})`,
      { cause: err },
    );
  }
  try {
    const { size } = await handle.stat();
    if (size < 1024) throw new ModelFileError(`el archivo del modelo es demasiado pequeño (${size} bytes)`);
    const c = new Cursor(handle, size);
    if ((await c.u32()) !== GGML_MAGIC) throw new ModelFileError('el archivo no es un modelo ggml (firma incorrecta)');

    const h = {} as WhisperHparams;
    for (const key of HPARAM_ORDER) h[key] = await c.i32();
    checkHparams(h);

    const nMel = await c.i32();
    const nFft = await c.i32();
    if (nMel !== h.nMels || nFft !== 201) throw new ModelFileError(`filtros mel no válidos (${nMel}×${nFft})`);
    c.skip(nMel * nFft * 4);

    const nWords = await c.i32();
    if (nWords < 1 || nWords > h.nVocab) throw new ModelFileError(`vocabulario no válido (${nWords} palabras)`);
    for (let i = 0; i < nWords; i++) {
      const len = await c.u32();
      if (len > 1024) throw new ModelFileError('vocabulario dañado');
      c.skip(len);
    }

    const expected = new Map(expectedTensors(h).map((t) => [t.name, t]));
    const seen = new Set<string>();
    while (c.pos < size) {
      const nDims = await c.i32();
      const nameLen = await c.i32();
      const type = await c.i32();
      if (nDims < 1 || nDims > 4 || nameLen < 1 || nameLen > 256 || !GGML_TYPES[type]) {
        throw new ModelFileError(`cabecera de tensor dañada en el byte ${c.pos - 12}`);
      }
      const ne = [1, 1, 1, 1];
      for (let d = 0; d < nDims; d++) ne[d] = await c.i32();
      const name = await c.text(nameLen);
      const spec = expected.get(name);
      if (!spec) throw new ModelFileError(`tensor desconocido en el modelo: ${JSON.stringify(name)}`);
      if (seen.has(name)) throw new ModelFileError(`tensor repetido en el modelo: ${name}`);
      const want = [...spec.shape, 1, 1, 1].slice(0, 4);
      if (want.some((v, d) => v !== ne[d])) {
        throw new ModelFileError(
          `forma incorrecta del tensor ${name}: [${ne.join(',')}], se esperaba [${want.join(',')}]`,
        );
      }
      if (type !== spec.type) throw new ModelFileError(`tipo incorrecto del tensor ${name}`);
      c.skip(tensorDataBytes(spec.shape, type));
      seen.add(name);
    }
    if (seen.size !== expected.size) {
      throw new ModelFileError(`faltan ${expected.size - seen.size} tensores: el modelo está incompleto`);
    }
    return {
      path,
      sizeBytes: size,
      sizeName: modelSizeName(h.nAudioLayer),
      multilingual: h.nVocab >= 51865,
      hparams: h,
      tensorCount: seen.size,
    };
  } finally {
    await handle.close();
  }
}

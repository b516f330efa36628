/**
 * Piscina worker: owns one whisper.cpp context and one Silero VAD. Voice detection runs first; Whisper only runs
 * when there is voice, so it never invents text on silence or noise. The model is loaded once, when the worker
 * starts (piscina awaits the exported promise before handing it tasks).
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { workerData } from 'node:worker_threads';
import { validateModelFile } from './model-file.js';
import { SileroVad } from './silero-vad.js';
import {
  MODEL_UNUSABLE,
  type TranscribeReply,
  type WarmupReply,
  type WorkerConfig,
  type WorkerTask,
} from './worker-protocol.js';
import { whisperAddon } from './whisper-addon.js';

const config = workerData as WorkerConfig;
if (config.quiet) process.env.NODE_ENV = 'production'; // per-thread copy of the environment
const require = createRequire(import.meta.url);

interface NativeModel {
  readonly handle: unknown;
  free(): Promise<void>;
}
interface WhisperBinding {
  WhisperModel: { load(file: string, gpu: boolean): Promise<NativeModel> };
  transcribe(
    handle: unknown,
    pcm: Float32Array,
    params: Record<string, unknown>,
    finish: (results: Array<{ text: string }> | Error) => void,
    progress: (segment: unknown) => void,
  ): void;
}

// The native addon directly: smart-whisper's JS entry creates ~/.smart-whisper at import, which a server must not do.
// The build for this CPU (whisper-addon.ts).
const whisper = require(whisperAddon().path) as WhisperBinding;

function runWhisper(model: NativeModel, samples: Float32Array, idioma: string): Promise<string> {
  return new Promise((resolve, reject) => {
    whisper.transcribe(
      model.handle,
      samples,
      {
        // smart-whisper starts from beam-search defaults; pick the strategy explicitly.
        strategy: config.beamSize > 1 ? 1 : 0,
        beam_size: config.beamSize,
        language: idioma,
        n_threads: config.threads,
        translate: false,
        no_context: true,
        suppress_non_speech_tokens: true,
        temperature_inc: config.temperatureInc,
        format: 'simple',
      },
      (results) => {
        if (results instanceof Error) return reject(results);
        resolve(
          results
            .map((r) => r.text)
            .join(' ')
            .replace(/\s+/g, ' ')
            .trim(),
        );
      },
      () => {},
    );
  });
}

async function init(): Promise<(task: WorkerTask) => Promise<TranscribeReply | WarmupReply>> {
  // Checked again here, not only at engine start: a worker replacing a dead one loads the file anew, and if it
  // was deleted or overwritten meanwhile, whisper.cpp would take the whole process down instead of failing.
  // A failed load must still yield a handler: piscina never hands tasks to a worker whose module rejected, and
  // they would wait forever. Every task then fails at once with the reason.
  let model: NativeModel;
  let vad: SileroVad;
  try {
    await validateModelFile(config.modelPath);
    model = await whisper.WhisperModel.load(config.modelPath, false);
    vad = await SileroVad.load(config.vadModelPath);
  } catch (err) {
    const reason = MODEL_UNUSABLE + (err instanceof Error ? err.message : String(err));
    return async () => {
      throw new Error(reason);
    };
  }
  return async (task) => {
    switch (task.op) {
      case 'warmup':
        return { op: 'warmup' };
      case 'transcribe': {
        if (task.crash && config.testHooks) process.exit(3); // ends this worker thread only
        const t0 = performance.now();
        // Whisper only runs when there is voice, so it never invents text on silence or noise.
        const voice = await vad.hasVoice(task.samples, config.vadThreshold, config.minSpeechS);
        const t1 = performance.now();
        if (!voice) return { op: 'transcribe', texto: '', vacio: true, vadMs: t1 - t0, whisperMs: 0 };
        const texto = await runWhisper(model, task.samples, task.idioma);
        return { op: 'transcribe', texto, vacio: false, vadMs: t1 - t0, whisperMs: performance.now() - t1 };
      }
    }
  };
}

export default init();

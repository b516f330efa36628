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
  type TranscriptSegment,
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
    finish: (results: Array<{ from: number; to: number; text: string }> | Error) => void,
    progress: (segment: unknown) => void,
  ): void;
}

// The native addon directly: smart-whisper's JS entry creates ~/.smart-whisper at import, which a server must not do.
// The build for this CPU (whisper-addon.ts).
const whisper = require(whisperAddon().path) as WhisperBinding;

/** The whole text (segments joined, spaces collapsed) and each segment with its times. */
function runWhisper(
  model: NativeModel,
  samples: Float32Array,
  idioma: string,
  prompt: string | undefined,
): Promise<{ text: string; segments: TranscriptSegment[] }> {
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
        // Vocabulary or style to continue from (OpenAI's `prompt`); whisper.cpp conditions the first window on it.
        ...(prompt ? { initial_prompt: prompt } : {}),
      },
      (results) => {
        if (results instanceof Error) return reject(results);
        const segments = results
          .map((r) => ({ startS: r.from / 1000, endS: r.to / 1000, text: r.text.replace(/\s+/g, ' ').trim() }))
          .filter((s) => s.text !== '');
        resolve({
          text: segments
            .map((s) => s.text)
            .join(' ')
            .trim(),
          segments,
        });
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
        if (!voice) return { op: 'transcribe', texto: '', vacio: true, segments: [], vadMs: t1 - t0, whisperMs: 0 };
        const { text, segments } = await runWhisper(model, task.samples, task.idioma, task.prompt);
        return {
          op: 'transcribe',
          texto: text,
          vacio: false,
          segments,
          vadMs: t1 - t0,
          whisperMs: performance.now() - t1,
        };
      }
    }
  };
}

export default init();

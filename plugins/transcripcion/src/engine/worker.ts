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
    finish: (results: WhisperSegment[] | Error) => void,
    progress: (segment: unknown) => void,
  ): void;
}

// The native addon directly: smart-whisper's JS entry creates ~/.smart-whisper at import, which a server must not do.
// The build for this CPU (whisper-addon.ts).
const whisper = require(whisperAddon().path) as WhisperBinding;

/** A segment as smart-whisper gives it; `tokens` only in its `detail` format (times with `token_timestamps`). */
interface WhisperSegment {
  from: number;
  to: number;
  text: string;
  tokens?: { text: string; from?: number; to?: number }[];
}

/**
 * Words from the tokens' times: a token that starts with a space (or a segment) starts a word, the others continue
 * it. Special tokens (`[_BEG_]`, `[_TT_…]`, `<|…|>`) carry no text.
 */
function wordsOf(results: readonly WhisperSegment[]): TranscriptSegment[] {
  const words: TranscriptSegment[] = [];
  for (const segment of results) {
    let first = true;
    for (const token of segment.tokens ?? []) {
      if (/^\[_|^<\|/.test(token.text) || token.from === undefined || token.to === undefined) continue;
      const last = words.at(-1);
      if (first || !last || /^\s/.test(token.text))
        words.push({ startS: token.from / 1000, endS: token.to / 1000, text: token.text.trim() });
      else {
        last.text += token.text;
        last.endS = token.to / 1000;
      }
      first = false;
    }
  }
  return words.filter((w) => w.text !== '');
}

/** The whole text (segments joined, spaces collapsed), each segment with its times, and the words when asked. */
function runWhisper(
  model: NativeModel,
  samples: Float32Array,
  idioma: string,
  prompt: string | undefined,
  withWords: boolean,
): Promise<{ text: string; segments: TranscriptSegment[]; words: TranscriptSegment[] }> {
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
        format: withWords ? 'detail' : 'simple',
        token_timestamps: withWords,
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
          words: withWords ? wordsOf(results) : [],
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
        if (!voice)
          return { op: 'transcribe', texto: '', vacio: true, segments: [], words: [], vadMs: t1 - t0, whisperMs: 0 };
        const { text, segments, words } = await runWhisper(
          model,
          task.samples,
          task.idioma,
          task.prompt,
          task.words === true,
        );
        return {
          op: 'transcribe',
          texto: text,
          vacio: false,
          segments,
          words,
          vadMs: t1 - t0,
          whisperMs: performance.now() - t1,
        };
      }
    }
  };
}

export default init();

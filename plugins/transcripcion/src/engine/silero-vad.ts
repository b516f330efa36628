// Silero VAD v5 run with onnxruntime-node, the ONNX runtime the host already ships for its search models. (It used
// to run through sherpa-onnx-node, whose own copy of the runtime, a different version with versioned symbols that
// cannot be shared, put ~27 MB more into the executable.) The model sees 32 ms windows at 16 kHz: 512 new samples
// after the 64 before them, with its recurrent state carried from window to window.
import { createRequire } from 'node:module';

type Ort = typeof import('onnxruntime-node');

export const VAD_SAMPLE_RATE = 16_000;
/** New samples per window (32 ms at 16 kHz), the only size Silero v5 accepts at that rate. */
export const VAD_WINDOW = 512;
/** Samples of the previous window placed before each new one. */
const CONTEXT = 64;
const STATE_SIZE = 2 * 1 * 128;

/**
 * Decides "speech" the way Silero's reference streaming detectors do: a window is voiced when its probability is
 * above the threshold, and speech is found once voiced windows have run for at least `minSpeechSamples` since the
 * first of them (a window at or below the threshold breaks the run).
 */
export class SpeechGate {
  private samples = 0;
  private runStart = 0;

  constructor(
    private readonly threshold: number,
    private readonly minSpeechSamples: number,
  ) {}

  /** Feeds one window's probability; true once the run of voiced windows is long enough. */
  push(probability: number): boolean {
    this.samples += VAD_WINDOW;
    if (probability <= this.threshold) {
      this.runStart = 0;
      return false;
    }
    if (this.runStart === 0) {
      this.runStart = this.samples;
      return this.minSpeechSamples <= 0;
    }
    return this.samples - this.runStart >= this.minSpeechSamples;
  }
}

export class SileroVad {
  private constructor(
    private readonly ort: Ort,
    private readonly session: import('onnxruntime-node').InferenceSession,
  ) {}

  /** Loads the model (one thread: each transcription worker owns its own detector). */
  static async load(modelPath: string): Promise<SileroVad> {
    const ort = createRequire(import.meta.url)('onnxruntime-node') as Ort;
    const session = await ort.InferenceSession.create(modelPath, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const inputs = [...session.inputNames].sort().join(',');
    if (
      inputs !== 'input,sr,state' ||
      !session.outputNames.includes('output') ||
      !session.outputNames.includes('stateN')
    ) {
      throw new Error(`${modelPath} no es un modelo Silero VAD v5 (entradas: ${session.inputNames.join(', ')})`);
    }
    return new SileroVad(ort, session);
  }

  /** Whether `samples` (mono, 16 kHz) hold at least `minSpeechS` of speech. Stops at the first detection. */
  async hasVoice(samples: Float32Array, threshold: number, minSpeechS: number): Promise<boolean> {
    const gate = new SpeechGate(threshold, Math.floor(minSpeechS * VAD_SAMPLE_RATE));
    const { Tensor } = this.ort;
    const sr = new Tensor('int64', BigInt64Array.of(BigInt(VAD_SAMPLE_RATE)), [1]);
    let state = new Tensor('float32', new Float32Array(STATE_SIZE), [2, 1, 128]);
    const window = new Float32Array(CONTEXT + VAD_WINDOW);
    for (let at = 0; at < samples.length; at += VAD_WINDOW) {
      // The previous window's last 64 samples, then the new ones (zero-padded at the end of the audio).
      window.copyWithin(0, VAD_WINDOW, VAD_WINDOW + CONTEXT);
      const chunk = samples.subarray(at, Math.min(at + VAD_WINDOW, samples.length));
      window.set(chunk, CONTEXT);
      window.fill(0, CONTEXT + chunk.length);
      const out = await this.session.run({
        input: new Tensor('float32', window.slice(), [1, CONTEXT + VAD_WINDOW]),
        state,
        sr,
      });
      state = out.stateN as typeof state;
      if (gate.push((out.output!.data as Float32Array)[0]!)) return true;
    }
    return false;
  }

  release(): Promise<void> {
    return this.session.release();
  }
}

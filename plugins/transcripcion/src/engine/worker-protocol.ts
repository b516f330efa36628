/** Messages between the engine and its piscina workers (structured-clone safe). */
export interface WorkerConfig {
  modelPath: string;
  vadModelPath: string;
  threads: number;
  vadThreshold: number;
  minSpeechS: number;
  beamSize: number;
  temperatureInc: number;
  /** Silences whisper.cpp's own logging (smart-whisper reads NODE_ENV when the addon loads). */
  quiet: boolean;
  /** Honours `crash` on a task: tests use it to kill a worker mid-request, the way a native crash would. */
  testHooks: boolean;
}

export type WorkerTask =
  | { op: 'warmup' }
  | { op: 'transcribe'; samples: Float32Array; idioma: string; prompt?: string; words?: boolean; crash?: boolean };

/** One stretch of recognised speech, with its times from the start of the audio. */
export interface TranscriptSegment {
  startS: number;
  endS: number;
  text: string;
}

export interface WarmupReply {
  op: 'warmup';
}

export interface TranscribeReply {
  op: 'transcribe';
  texto: string;
  vacio: boolean;
  /** Whisper's segments (empty when the VAD found no voice). */
  segments: TranscriptSegment[];
  /** Each word with its times, only when the task asked for `words` (whisper.cpp's token timestamps). */
  words: TranscriptSegment[];
  vadMs: number;
  whisperMs: number;
}

/** Prefix of the error a worker throws for every task when it could not load the model. */
export const MODEL_UNUSABLE = 'MODEL_UNUSABLE: ';

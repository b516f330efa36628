export { TranscriptionEngine } from './engine.js';
export type {
  DetailedTranscription,
  EngineState,
  EngineStatus,
  TranscribeOptions,
  TranscriptionResult,
  TranscriptionTimings,
} from './engine.js';
export type { TranscriptSegment } from './worker-protocol.js';
export { TranscriptionError, DEFAULT_DETAIL, httpStatusFor, isTranscriptionError } from './errors.js';
export type { TranscriptionErrorCode } from './errors.js';
export { TranscriptionErrors } from './error-codes.js';
export { MAX_DURATION_S, defaultModelPath, defaultVadModelPath, resolveDurationCap } from './options.js';
export type { EngineLogger, TranscriptionEngineOptions } from './options.js';
export { ModelFileError, validateModelFile } from './model-file.js';
export type { ModelFileInfo } from './model-file.js';
export { isSupportedLanguage, WHISPER_LANGUAGES } from './languages.js';
export { decodeAudio, SAMPLE_RATE } from './decode.js';
export type { DecodedAudio, DecodeOptions } from './decode.js';
export { whisperBuildHasSimd } from './simd.js';
export { installModel, KNOWN_MODELS, ModelInstallError } from './installer.js';
export type { InstallModelOptions, InstalledModel } from './installer.js';
export {
  degradedReason,
  FAILED_DETAIL,
  INSTALL_COMMAND,
  NO_MODEL_DETAIL,
  SUGGESTED_MODEL_FILE,
} from './install-advice.js';

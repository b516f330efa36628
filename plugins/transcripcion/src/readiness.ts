import type { EngineState, TranscriptionEngine } from './engine/index.js';

export interface Readiness {
  listo: boolean;
  motor: EngineState;
  /** Waiting is enough (the model is loading); false when the operator has to install or fix something. */
  reintentar: boolean;
  /** What `motor_no_listo` would say now; null when ready. */
  detalle: string | null;
}

/**
 * `GET /estado`: whether a transcription would be accepted now, and if not, the very sentence its `motor_no_listo`
 * would carry, so a page can say so before the user uploads anything.
 */
export function engineReadiness(engine: TranscriptionEngine): Readiness {
  const { state } = engine.status();
  if (state === 'ready') return { listo: true, motor: state, reintentar: false, detalle: null };
  const err = engine.notReadyError();
  return { listo: false, motor: state, reintentar: err.retryAfterS !== undefined, detalle: err.detalle };
}

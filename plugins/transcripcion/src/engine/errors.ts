import { TranscriptionErrors } from './error-codes.js';

const CATALOGUE = TranscriptionErrors.catalogue;

/**
 * Failures of the transcription engine, one machine-readable `codigo` each (contract section 7).
 * Each code is a key of the plugin's own error catalogue, which holds its status; the HTTP layer sends
 * `{detail: {codigo, detalle}, codigo}`.
 */
export type TranscriptionErrorCode =
  | 'no_soportado'
  | 'audio_invalido'
  | 'demasiado_largo'
  | 'ocupado'
  | 'motor_no_listo';

/** One Spanish sentence per code, from the plugin's error catalogue; call sites may pass a more precise sentence. */
export const DEFAULT_DETAIL: Readonly<Record<TranscriptionErrorCode, string>> = {
  no_soportado: CATALOGUE.no_soportado.detail,
  audio_invalido: CATALOGUE.audio_invalido.detail,
  demasiado_largo: CATALOGUE.demasiado_largo.detail,
  ocupado: CATALOGUE.ocupado.detail,
  motor_no_listo: CATALOGUE.motor_no_listo.detail,
};

export class TranscriptionError extends Error {
  readonly codigo: TranscriptionErrorCode;
  readonly detalle: string;
  /**
   * Seconds a client should wait before retrying; only set for the 503 codes, and not when `retryAfterS: null`
   * says a retry cannot help (no model installed: it will not appear by itself).
   */
  readonly retryAfterS: number | undefined;

  constructor(
    codigo: TranscriptionErrorCode,
    detalle?: string,
    options?: { cause?: unknown; retryAfterS?: number | null },
  ) {
    const text = detalle ?? DEFAULT_DETAIL[codigo];
    super(`${codigo}: ${text}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TranscriptionError';
    this.codigo = codigo;
    this.detalle = text;
    this.retryAfterS =
      CATALOGUE[codigo].status === 503 && options?.retryAfterS !== null ? (options?.retryAfterS ?? 5) : undefined;
  }

  get httpStatus(): number {
    return CATALOGUE[this.codigo].status;
  }

  /** The `detail` object of the error body. */
  toDetail(): { codigo: TranscriptionErrorCode; detalle: string } {
    return { codigo: this.codigo, detalle: this.detalle };
  }
}

export function httpStatusFor(codigo: TranscriptionErrorCode): number {
  return CATALOGUE[codigo].status;
}

export function isTranscriptionError(value: unknown): value is TranscriptionError {
  return value instanceof TranscriptionError;
}

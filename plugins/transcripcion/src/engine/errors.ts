/**
 * Failures of the transcription engine, one machine-readable `codigo` each (contract section 7).
 * The HTTP layer maps them to statuses with `httpStatusFor` and sends `{detail: {codigo, detalle}}`.
 */
export type TranscriptionErrorCode =
  | 'no_soportado'
  | 'audio_invalido'
  | 'demasiado_largo'
  | 'ocupado'
  | 'motor_no_listo';

/** One Spanish sentence per code; call sites may pass a more precise sentence. */
export const DEFAULT_DETAIL: Readonly<Record<TranscriptionErrorCode, string>> = {
  no_soportado: 'El archivo no es un audio reconocible o no tiene pista de sonido.',
  audio_invalido: 'El audio está vacío, dañado o incompleto y no se pudo leer.',
  demasiado_largo: 'El audio supera la duración máxima permitida.',
  ocupado: 'Hay demasiadas transcripciones en curso; reintenta en unos segundos.',
  motor_no_listo: 'El motor de transcripción no está listo; reintenta en unos segundos.',
};

const HTTP_STATUS: Readonly<Record<TranscriptionErrorCode, number>> = {
  no_soportado: 422,
  audio_invalido: 422,
  demasiado_largo: 422,
  ocupado: 503,
  motor_no_listo: 503,
};

export class TranscriptionError extends Error {
  readonly codigo: TranscriptionErrorCode;
  readonly detalle: string;
  /** Seconds a client should wait before retrying; only set for the retryable 503 codes. */
  readonly retryAfterS: number | undefined;

  constructor(codigo: TranscriptionErrorCode, detalle?: string, options?: { cause?: unknown; retryAfterS?: number }) {
    const text = detalle ?? DEFAULT_DETAIL[codigo];
    super(`${codigo}: ${text}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TranscriptionError';
    this.codigo = codigo;
    this.detalle = text;
    this.retryAfterS = HTTP_STATUS[codigo] === 503 ? (options?.retryAfterS ?? 5) : undefined;
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.codigo];
  }

  /** The `detail` object of the error body. */
  toDetail(): { codigo: TranscriptionErrorCode; detalle: string } {
    return { codigo: this.codigo, detalle: this.detalle };
  }
}

export function httpStatusFor(codigo: TranscriptionErrorCode): number {
  return HTTP_STATUS[codigo];
}

export function isTranscriptionError(value: unknown): value is TranscriptionError {
  return value instanceof TranscriptionError;
}

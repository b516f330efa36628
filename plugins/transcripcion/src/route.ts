import {
  ApiError,
  UploadError,
  apiError,
  validationError,
  type ModuleRequest,
  type ReceivedFile,
  type ReceivedForm,
  type UploadReceiver,
} from '@cerebro/sdk';
import { TranscriptionErrors } from './engine/error-codes.js';
import {
  TranscriptionError,
  isSupportedLanguage,
  type TranscriptionEngine,
  type TranscriptionResult,
} from './engine/index.js';

/** Contract limits (section 8). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

const TOO_LARGE = {
  codigo: 'demasiado_grande',
  detalle: TranscriptionErrors.catalogue.demasiado_grande.detail,
} as const;

/** `{detail: {codigo, detalle}, codigo}` with the engine's status, and Retry-After on the retryable 503s. */
export function toApiError(err: TranscriptionError): ApiError {
  const headers: Record<string, string> = err.retryAfterS ? { 'retry-after': String(err.retryAfterS) } : {};
  return new ApiError(err.httpStatus, err.toDetail(), err.codigo, headers);
}

export function missingField(field: string, msg = 'Campo obligatorio.'): ApiError {
  return validationError([{ loc: ['body', field], msg, type: 'missing' }]);
}

/** The audio part of a form: a file part without a name and without bytes is what a form sends with none chosen. */
export const chosenFile = (form: ReceivedForm, field: string): ReceivedFile | undefined =>
  form.files.find((f) => f.field === field && (f.bytes > 0 || f.filename !== ''));

/**
 * Receives one audio in the multipart field `field` (25 MB enforced while streaming), before anything else is
 * checked. Read even when no model is installed: a request that is itself wrong (no audio, a bad field, two audios,
 * not multipart) is told so, as it would be with a model, rather than being sent to install one; the engine answers
 * `motor_no_listo` only to a well-formed request, when asked to transcribe it.
 */
export async function receiveAudio(uploads: UploadReceiver, req: ModuleRequest, field: string): Promise<ReceivedForm> {
  try {
    return await uploads.receive(req.raw, { maxFileBytes: MAX_UPLOAD_BYTES, maxFiles: 1, maxFields: 8 });
  } catch (err) {
    if (!(err instanceof UploadError)) throw err;
    if (err.reason === 'file_too_large') throw TranscriptionErrors.error('demasiado_grande', TOO_LARGE);
    if (err.reason === 'too_many_files') {
      throw validationError([
        { loc: ['body', field], msg: 'Envía un solo audio por petición.', type: 'too_many_files' },
      ]);
    }
    if (err.reason === 'not_multipart')
      throw missingField(field, `Envía el audio como multipart/form-data en el campo ${field}.`);
    throw apiError('bad_request', err.message);
  }
}

/** Optional fields of the form, validated as the contract states; invalid values are a 422 list. */
function readFields(fields: Readonly<Record<string, string>>): { idioma: string; duracionMaxS: number | undefined } {
  const issues: { loc: string[]; msg: string; type: string }[] = [];
  const idioma = (fields.idioma ?? '').trim() || 'es';
  if (!/^[a-z]{2}$/.test(idioma) || !isSupportedLanguage(idioma)) {
    issues.push({
      loc: ['body', 'idioma'],
      msg: 'Debe ser un código de idioma de dos letras admitido (por ejemplo, es).',
      type: 'value_error',
    });
  }
  let duracionMaxS: number | undefined;
  const rawCap = fields.duracion_max_s?.trim();
  if (rawCap !== undefined && rawCap !== '') {
    const n = Number(rawCap);
    if (!Number.isFinite(n))
      issues.push({ loc: ['body', 'duracion_max_s'], msg: 'Debe ser un número.', type: 'float_parsing' });
    else if (n < 1)
      issues.push({
        loc: ['body', 'duracion_max_s'],
        msg: 'Debe ser mayor o igual que 1.',
        type: 'greater_than_equal',
      });
    else duracionMaxS = Math.min(n, 120);
  }
  if (issues.length > 0) throw validationError(issues);
  return { idioma, duracionMaxS };
}

/**
 * POST /transcripciones: receives the multipart upload (25 MB enforced while streaming), transcribes it in the
 * same request, and removes the temporary file on every path. Neither audio nor text is stored or logged.
 */
export function transcriptionHandler(engine: TranscriptionEngine, uploads: UploadReceiver) {
  return async (req: ModuleRequest): Promise<TranscriptionResult> => {
    const form = await receiveAudio(uploads, req, 'archivo');
    try {
      const file = chosenFile(form, 'archivo');
      if (!file) throw missingField('archivo');
      const { idioma, duracionMaxS } = readFields(form.fields);
      try {
        return await engine.transcribe(file.path, {
          idioma,
          ...(duracionMaxS !== undefined ? { duracionMaxS } : {}),
          signal: req.signal,
          space: req.space.id,
          onTimings: (t) => req.log.debug({ ...t, bytes: file.bytes }, 'transcription timings'),
        });
      } catch (err) {
        if (err instanceof TranscriptionError) throw toApiError(err);
        throw err;
      }
    } finally {
      await form.cleanup();
    }
  };
}

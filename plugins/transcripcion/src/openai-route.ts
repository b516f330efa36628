import { validationError, type ModuleRequest, type RouteDeclaration, type UploadReceiver } from '@cerebro/sdk';
import { TranscriptionError, isSupportedLanguage, type TranscriptionEngine } from './engine/index.js';
import { RESPONSE_FORMATS, formatTranscription, type ResponseFormat } from './openai-formats.js';
import { MAX_UPLOAD_BYTES, chosenFile, missingField, receiveAudio, toApiError } from './route.js';

/** Longest `prompt` accepted (OpenAI's limit is 224 tokens, about this many characters). */
const MAX_PROMPT = 1000;

interface OpenAiFields {
  language: string;
  prompt: string | undefined;
  format: ResponseFormat;
  /** `timestamp_granularities` named `word`: the words with their times, beside the segments. */
  words: boolean;
}

type Issue = { loc: string[]; msg: string; type: string };

/**
 * The form's fields as OpenAI's clients send them. `model` names any model (the installed Whisper model answers);
 * `temperature` is accepted and not used (the engine's decoding is fixed by the operator).
 */
function readOpenAiFields(fields: Readonly<Record<string, string>>): OpenAiFields {
  const issues: Issue[] = [];
  const language = (fields.language ?? '').trim() || 'es';
  if (!/^[a-z]{2}$/.test(language) || !isSupportedLanguage(language))
    issues.push({
      loc: ['body', 'language'],
      msg: 'Debe ser un código ISO-639-1 admitido (por ejemplo, es).',
      type: 'value_error',
    });
  const prompt = fields.prompt?.trim() || undefined;
  if (prompt && prompt.length > MAX_PROMPT)
    issues.push({
      loc: ['body', 'prompt'],
      msg: `Admite como máximo ${MAX_PROMPT} caracteres.`,
      type: 'string_too_long',
    });
  const format = (fields.response_format ?? '').trim() || 'json';
  if (!(RESPONSE_FORMATS as readonly string[]).includes(format))
    issues.push({
      loc: ['body', 'response_format'],
      msg: `Debe ser uno de: ${RESPONSE_FORMATS.join(', ')}.`,
      type: 'enum',
    });
  // OpenAI's clients send an array as repeated `timestamp_granularities[]` fields; the form keeps the last one.
  const granularity = (fields['timestamp_granularities[]'] ?? fields.timestamp_granularities ?? '').trim();
  if (granularity !== '' && granularity !== 'segment' && granularity !== 'word')
    issues.push({
      loc: ['body', 'timestamp_granularities'],
      msg: 'Debe ser `segment` o `word`.',
      type: 'enum',
    });
  else if (granularity !== '' && format !== 'verbose_json')
    issues.push({
      loc: ['body', 'timestamp_granularities'],
      msg: 'Las marcas de tiempo solo van en `response_format: verbose_json`.',
      type: 'value_error',
    });
  if (issues.length > 0) throw validationError(issues);
  return { language, prompt, format: format as ResponseFormat, words: granularity === 'word' };
}

/**
 * POST /v1/audio/transcriptions: OpenAI's transcription API over the same engine, limits and rules as
 * `POST /transcripciones` (25 MB, 120 s, one audio, nothing stored), answering in that API's formats.
 */
export function openAiTranscriptionHandler(engine: TranscriptionEngine, uploads: UploadReceiver) {
  return async (req: ModuleRequest): Promise<unknown> => {
    const form = await receiveAudio(uploads, req, 'file');
    try {
      const file = chosenFile(form, 'file');
      if (!file) throw missingField('file');
      const { language, prompt, format, words } = readOpenAiFields(form.fields);
      try {
        const detailed = await engine.transcribeDetailed(file.path, {
          idioma: language,
          ...(prompt ? { prompt } : {}),
          ...(words ? { words } : {}),
          signal: req.signal,
          space: req.space.id,
          onTimings: (t) => req.log.debug({ ...t, bytes: file.bytes }, 'transcription timings'),
        });
        return formatTranscription(format, detailed, words);
      } catch (err) {
        if (err instanceof TranscriptionError) throw toApiError(err);
        throw err;
      }
    } finally {
      await form.cleanup();
    }
  };
}

const TRANSCRIPTION_JSON = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string' },
    usage: {
      type: 'object',
      required: ['type', 'seconds'],
      properties: { type: { enum: ['duration'] }, seconds: { type: 'integer' } },
    },
    task: { enum: ['transcribe'], description: 'Solo `verbose_json`.' },
    language: { type: 'string', description: 'Solo `verbose_json`: el nombre inglés del idioma (`spanish`).' },
    duration: { type: 'number', description: 'Solo `verbose_json`: segundos de audio.' },
    segments: {
      type: 'array',
      description: 'Solo `verbose_json`: los segmentos con sus tiempos en segundos desde el comienzo.',
      items: {
        type: 'object',
        required: ['id', 'start', 'end', 'text'],
        properties: {
          id: { type: 'integer' },
          start: { type: 'number' },
          end: { type: 'number' },
          text: { type: 'string' },
        },
      },
    },
    words: {
      type: 'array',
      description: 'Solo `verbose_json` con `timestamp_granularities` `word`: cada palabra con sus tiempos.',
      items: {
        type: 'object',
        required: ['word', 'start', 'end'],
        properties: { word: { type: 'string' }, start: { type: 'number' }, end: { type: 'number' } },
      },
    },
  },
};

/** The manifest entry of the OpenAI-compatible route. */
export const OPENAI_TRANSCRIPTION_ROUTE: RouteDeclaration = {
  id: 'openaiTranscribir',
  audit: false,
  method: 'POST',
  path: '/v1/audio/transcriptions',
  permission: 'escribe',
  body: 'multipart',
  errorFormat: 'openai',
  summary: 'Transcribir un audio con la API de transcripción de OpenAI',
  description:
    'Para clientes de OpenAI (base URL `/api/mod/transcripcion/{espacio}/v1`). Multipart: `file` (obligatorio; mismos límites que ' +
    '`/transcripciones`: 25 MB, 120 s, un audio), `model` (cualquier nombre: responde el modelo Whisper instalado), `language` ' +
    '(dos letras, por defecto `es`), `prompt` (palabras o estilo con que sigue el audio, hasta 1000 caracteres), ' +
    '`response_format` (`json` por defecto, `text`, `srt`, `vtt`, `verbose_json` con `segments` y sus tiempos), ' +
    '`timestamp_granularities[]` (`segment`, o `word` para tener además `words` con sus tiempos; solo con `verbose_json`) y `temperature` (se ignora). ' +
    'Sin créditos. Los errores llevan además `error` con la forma de OpenAI. Ni el audio ni el texto se guardan.',
  requestSchema: {
    type: 'object',
    required: ['file'],
    properties: {
      file: { type: 'string', format: 'binary' },
      model: { type: 'string' },
      language: { type: 'string', pattern: '^[a-z]{2}$', default: 'es' },
      prompt: { type: 'string', maxLength: MAX_PROMPT },
      response_format: { enum: [...RESPONSE_FORMATS], default: 'json' },
      'timestamp_granularities[]': { type: 'array', items: { enum: ['segment', 'word'] } },
      temperature: { type: 'number' },
    },
  },
  responses: {
    '200': {
      description:
        '`json` y `verbose_json`: este objeto; `text` (text/plain), `srt` (application/x-subrip) y `vtt` (text/vtt): el texto en ese formato.',
      schema: TRANSCRIPTION_JSON,
    },
    '413': { description: `\`demasiado_grande\`: más de ${MAX_UPLOAD_BYTES / 1048576} MB.` },
    '422': { description: '`demasiado_largo`, `no_soportado`, `audio_invalido`, o lista de errores de validación' },
    '503': { description: '`ocupado` o `motor_no_listo`, como en `/transcripciones`.' },
  },
};

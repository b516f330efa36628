import type { ValidationIssue } from '@cerebro/sdk';
import { DEFAULT_ANSWER_OPTIONS, type AnswerOptions } from '../cerebro/index.js';

/** How the Cerebro answers in a space (`PATCH /rag/{espacio}/config`); Spanish wire names. */
export interface RagConfig {
  /** Persona or instructions for a generating model (also stored for the sales agent). */
  instrucciones: string;
  /** Answer language (ISO 639-1). */
  idioma: string;
  /** `corta` (1–2 sentences), `media` (3) or `larga` (6). */
  longitud: 'corta' | 'media' | 'larga';
  /** Passages the answer may draw from (1–20). */
  pasajes: number;
  /** 0–1: share of the question a passage must cover to count as relevant. */
  relevancia_minima: number;
  /** Said when the documents do not contain the answer. */
  texto_sin_respuesta: string;
  /** Append [n] markers pointing into `fuentes`. */
  citas: boolean;
  /** How long a cached answer is served, in seconds; 0 turns the cache off. */
  cache_segundos: number;
}

export const DEFAULT_RAG_CONFIG: RagConfig = {
  instrucciones: '',
  idioma: 'es',
  longitud: 'media',
  pasajes: DEFAULT_ANSWER_OPTIONS.passages,
  relevancia_minima: DEFAULT_ANSWER_OPTIONS.minRelevance,
  texto_sin_respuesta: DEFAULT_ANSWER_OPTIONS.noAnswerText,
  citas: DEFAULT_ANSWER_OPTIONS.citations,
  cache_segundos: 3600,
};

const LENGTHS: Record<RagConfig['longitud'], { maxSentences: number; maxChars: number }> = {
  corta: { maxSentences: 2, maxChars: 350 },
  media: { maxSentences: 3, maxChars: 700 },
  larga: { maxSentences: 6, maxChars: 1400 },
};

export function answerOptionsOf(config: RagConfig): AnswerOptions {
  return {
    passages: config.pasajes,
    minRelevance: config.relevancia_minima,
    noAnswerText: config.texto_sin_respuesta,
    citations: config.citas,
    instructions: config.instrucciones,
    language: config.idioma,
    ...LENGTHS[config.longitud],
  };
}

type Check = (value: unknown) => string | null;
const CHECKS: Record<keyof RagConfig, Check> = {
  instrucciones: (v) => (typeof v === 'string' && v.length <= 4000 ? null : 'Debe ser un texto de hasta 4000 caracteres.'),
  idioma: (v) => (typeof v === 'string' && /^[a-z]{2}$/.test(v) ? null : 'Debe ser un código de idioma de dos letras (es, en, ...).'),
  longitud: (v) => (v === 'corta' || v === 'media' || v === 'larga' ? null : 'Debe ser "corta", "media" o "larga".'),
  pasajes: (v) => (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 20 ? null : 'Debe ser un entero entre 1 y 20.'),
  relevancia_minima: (v) => (typeof v === 'number' && v >= 0 && v <= 1 ? null : 'Debe ser un número entre 0 y 1.'),
  texto_sin_respuesta: (v) => (typeof v === 'string' && v.trim().length >= 1 && v.length <= 500 ? null : 'Debe ser un texto de 1 a 500 caracteres.'),
  citas: (v) => (typeof v === 'boolean' ? null : 'Debe ser true o false.'),
  cache_segundos: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 604_800 ? null : 'Debe ser un entero entre 0 y 604800 (una semana); 0 desactiva la caché.'),
};

/** Partial update: validates every field sent and returns the merged configuration, or the issues. */
export function patchRagConfig(current: RagConfig, body: unknown): { config: RagConfig } | { issues: ValidationIssue[] } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { issues: [{ loc: ['body'], msg: 'Se esperaba un objeto JSON.', type: 'dict_type' }] };
  }
  const issues: ValidationIssue[] = [];
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(body)) {
    const check = (CHECKS as Record<string, Check | undefined>)[field];
    const problem = check ? check(value) : 'Campo desconocido.';
    if (problem) issues.push({ loc: ['body', field], msg: problem, type: check ? 'value_error' : 'extra_forbidden' });
    else next[field] = value;
  }
  return issues.length ? { issues } : { config: next as unknown as RagConfig };
}

/** A stored configuration read back with defaults for fields added since it was written. */
export const ragConfigFromStored = (json: string | undefined): RagConfig => ({ ...DEFAULT_RAG_CONFIG, ...(json ? (JSON.parse(json) as Partial<RagConfig>) : {}) });

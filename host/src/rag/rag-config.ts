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

const FIELDS = Object.keys(DEFAULT_RAG_CONFIG) as (keyof RagConfig)[];

/**
 * Partial update of a body the pipeline already checked against the route's schema (types, ranges, no unknown
 * fields). Only what a schema cannot say is checked here; fields are copied by name from the known list, so no
 * body key can reach the prototype of the result.
 */
export function patchRagConfig(
  current: RagConfig,
  patch: Partial<RagConfig>,
): { config: RagConfig } | { issues: ValidationIssue[] } {
  if (typeof patch.texto_sin_respuesta === 'string' && patch.texto_sin_respuesta.trim() === '') {
    return {
      issues: [
        {
          loc: ['body', 'texto_sin_respuesta'],
          msg: 'Debe ser un texto de 1 a 500 caracteres.',
          type: 'string_too_short',
        },
      ],
    };
  }
  const next: Record<string, unknown> = { ...current };
  for (const field of FIELDS) if (Object.hasOwn(patch, field)) next[field] = patch[field];
  return { config: next as unknown as RagConfig };
}

/** A stored configuration read back with defaults for fields added since it was written. */
export const ragConfigFromStored = (json: string | undefined): RagConfig => ({
  ...DEFAULT_RAG_CONFIG,
  ...(json ? (JSON.parse(json) as Partial<RagConfig>) : {}),
});

import type { JsonSchema } from '@cerebro/sdk';
import { LABEL_LIMITS_TEXT, MAX_METADATA_BYTES, MAX_TAG_LENGTH, MAX_TAGS } from './document-labels.js';

/** Request schemas of documents' labels and of narrowing questions to them (issue #27 item 3). */

// Loose bounds here (twice the limits): the exact checks follow normalisation, with their own messages.
const TAG_LIST = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH * 2 },
  maxItems: MAX_TAGS * 2,
} as const;

/** `documentos` and `etiquetas` of a question or a search. */
export const NARROWING_PROPERTIES = {
  documentos: {
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 255 },
    minItems: 1,
    maxItems: 100,
    description: 'Solo pasajes de estos documentos (por nombre).',
  },
  etiquetas: {
    ...TAG_LIST,
    minItems: 1,
    description:
      'Solo pasajes de documentos con todas estas etiquetas (normalizadas como al guardarlas). Con `documentos`, de esos documentos los que las tengan.',
  },
} as const;

/** `PATCH /rag/{espacio}/documents/{archivo}`. */
export const LABELS_PATCH_SCHEMA = {
  type: 'object',
  minProperties: 1,
  properties: {
    etiquetas: { ...TAG_LIST, description: 'Sustituye las etiquetas del documento ([] las quita todas).' },
    metadatos: {
      type: 'object',
      description: `Se combina con los metadatos actuales: cada clave enviada se guarda, y una clave con null se elimina (JSON Merge Patch). ${LABEL_LIMITS_TEXT}`,
    },
  },
  additionalProperties: false,
} as const;

/** The label filters of the documents list. */
export const LABEL_FILTER_QUERY = {
  etiquetas: {
    type: 'string',
    maxLength: (MAX_TAG_LENGTH + 1) * MAX_TAGS,
    description: 'Solo documentos con todas estas etiquetas, separadas por comas (`?etiquetas=rrhh,2024`).',
  },
  metadatos: {
    type: 'string',
    maxLength: MAX_METADATA_BYTES,
    description:
      'Solo documentos cuyos metadatos tienen estos valores: un objeto JSON (`?metadatos={"area":"ventas","año":2024}`); los tipos cuentan (2024 no es "2024").',
  },
} as const satisfies Record<string, JsonSchema>;

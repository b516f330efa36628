import type { JsonSchema } from '@cerebro/sdk';
import { list, nullable, object, page } from './schema-helpers.js';

/** Body of `POST /fichas`. */
export const FICHA_CREATE_SCHEMA = {
  type: 'object',
  required: ['tema'],
  additionalProperties: false,
  properties: {
    tema: { type: 'string', minLength: 1, maxLength: 300, description: 'De qué trata la ficha, p. ej. "Plan Básico".' },
    campos: {
      type: 'array',
      minItems: 1,
      maxItems: 30,
      description:
        'Campos de la ficha: nombres, u objetos {nombre, pregunta} con la pregunta con que se buscan. Sin `campos`, se proponen a partir de los documentos.',
      items: {
        oneOf: [
          { type: 'string', minLength: 1, maxLength: 100 },
          {
            type: 'object',
            required: ['nombre'],
            additionalProperties: false,
            properties: {
              nombre: { type: 'string', minLength: 1, maxLength: 100 },
              pregunta: { type: 'string', minLength: 1, maxLength: 500 },
            },
          },
        ],
      },
    },
    fuentes: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: { type: 'string', minLength: 1, maxLength: 100 },
      description: 'Solo los documentos que trajeron estas fuentes (ids).',
    },
    documentos: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: { type: 'string', minLength: 1, maxLength: 255 },
      description: 'Solo estos documentos (nombres).',
    },
  },
} as const;

export const FICHA_SCHEMA: JsonSchema = object({
  id: { type: 'string' },
  tema: { type: 'string' },
  estado: { enum: ['en_cola', 'generando', 'lista', 'fallida', 'cancelada'] },
  progreso: { type: 'number', minimum: 0, maximum: 1 },
  motivo: nullable('string', { description: 'Por qué falló o se canceló (los créditos se devolvieron).' }),
  campos: nullable('array', { items: { type: 'string' }, description: 'Los campos pedidos (null: se proponen).' }),
  fuentes: list({ type: 'string' }),
  documentos: list({ type: 'string' }),
  creditos: { type: 'integer', description: 'Créditos cobrados (devueltos si falla).' },
  resumen: {
    oneOf: [
      { type: 'null' },
      object({
        campos: { type: 'integer' },
        encontrados: { type: 'integer' },
        sin_datos: { type: 'integer' },
        conflictos: { type: 'integer' },
      }),
    ],
  },
  creada: { type: 'string' },
  inicio: nullable('string'),
  fin: nullable('string'),
});

export const FICHA_PAGE_SCHEMA = page('fichas', FICHA_SCHEMA);

import type { JsonSchema } from '@cerebro/sdk';
import { list, nullable, object, page } from './schema-helpers.js';

const URL_FIELD = { type: 'string', minLength: 8, maxLength: 2048, description: 'Dirección http o https.' } as const;

/** Body of `POST /fuentes`. Fields that do not apply to the kind are refused (422), so a typo is never ignored. */
export const SOURCE_CREATE_SCHEMA = {
  type: 'object',
  required: ['tipo'],
  additionalProperties: false,
  properties: {
    tipo: {
      enum: ['url', 'sitio', 'sitemap', 'feed', 'lista'],
      description:
        'url: una página; sitio: rastreo de un sitio; sitemap: las páginas de un sitemap; feed: las entradas de un RSS/Atom; lista: varias páginas.',
    },
    nombre: { type: 'string', minLength: 1, maxLength: 200, description: 'Etiqueta; por defecto la dirección.' },
    url: {
      ...URL_FIELD,
      description: 'Página (url), página de inicio (sitio), sitemap o feed. Obligatoria salvo en `lista`.',
    },
    urls: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      items: URL_FIELD,
      description: 'Solo `lista`: las páginas (1 a 500).',
    },
    profundidad: {
      type: 'integer',
      minimum: 0,
      maximum: 10,
      description: 'Solo `sitio`: saltos de enlace desde la página de inicio (por defecto 2).',
    },
    max_paginas: {
      type: 'integer',
      minimum: 1,
      maximum: 100000,
      description: 'Páginas como máximo por ejecución (por defecto 100; tope: la configuración `max_paginas`).',
    },
    prefijo: {
      type: 'string',
      pattern: '^/',
      maxLength: 500,
      description: 'Solo `sitio`: solo rutas que empiezan así (por defecto "/").',
    },
    mismo_origen: {
      type: 'boolean',
      description:
        'Solo `sitio`: true (por defecto) se queda en el origen de la página de inicio; false sigue también sus subdominios.',
    },
    pausa_ms: {
      type: 'integer',
      minimum: 0,
      maximum: 60000,
      description:
        'Pausa entre dos peticiones al mismo servidor (por defecto la configuración `pausa_ms`); el Crawl-delay de robots.txt manda si es mayor.',
    },
    cada_horas: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 8760,
      description: 'Relanzar sola cada tantas horas (null o ausente: solo a mano).',
    },
    lanzar: { type: 'boolean', description: 'true: lanza la primera ejecución al crearla (por defecto false).' },
  },
} as const;

const COUNTS_SCHEMA = object({
  encontradas: { type: 'integer', description: 'Direcciones halladas dentro del alcance.' },
  leidas: { type: 'integer', description: 'Páginas leídas (2xx o 304).' },
  nuevas: { type: 'integer' },
  cambiadas: { type: 'integer' },
  sin_cambios: { type: 'integer' },
  fallidas: { type: 'integer' },
  rechazadas_robots: { type: 'integer' },
  rechazadas_guardia: {
    type: 'integer',
    description: 'Rechazadas por la guardia de direcciones (SSRF) o por el esquema.',
  },
  eliminadas: { type: 'integer', description: 'Documentos quitados porque su página desapareció.' },
});

export const RUN_SCHEMA: JsonSchema = object({
  id: { type: 'string' },
  estado: { enum: ['en_cola', 'ejecutando', 'completada', 'cancelada', 'fallida'] },
  motivo: nullable('string', {
    description: 'Por qué terminó así (fallida, cancelada) o qué límite la cortó (completada).',
  }),
  origen: {
    enum: ['manual', 'programada', 'creacion', 'reanudacion'],
    description: '`reanudacion`: relanzada al arrancar porque una caída cortó la anterior.',
  },
  contadores: COUNTS_SCHEMA,
  bytes: { type: 'integer' },
  errores: list(
    object({
      url: { type: 'string' },
      codigo: { type: 'string' },
      motivo: { type: 'string' },
      estado_http: nullable('integer'),
    }),
    `Como máximo 100; el resto se cuenta en \`errores_omitidos\`.`,
  ),
  errores_omitidos: { type: 'integer' },
  creada: { type: 'string' },
  inicio: nullable('string'),
  fin: nullable('string'),
});

export const SOURCE_SCHEMA: JsonSchema = object({
  id: { type: 'string' },
  nombre: { type: 'string' },
  tipo: { enum: ['url', 'sitio', 'sitemap', 'feed', 'lista'] },
  url: nullable('string'),
  urls: list({ type: 'string' }),
  profundidad: { type: 'integer' },
  max_paginas: { type: 'integer' },
  prefijo: { type: 'string' },
  mismo_origen: { type: 'boolean' },
  pausa_ms: { type: 'integer' },
  cada_horas: nullable('integer'),
  proxima_ejecucion: nullable('string', { description: 'Cuándo se relanza sola (con `cada_horas`).' }),
  documentos: { type: 'integer', description: 'Documentos del espacio que trajo esta fuente.' },
  creada: { type: 'string' },
  actualizada: { type: 'string' },
  ultima_ejecucion: { oneOf: [{ type: 'null' }, RUN_SCHEMA] },
});

export const SOURCE_PAGE_SCHEMA = page('fuentes', SOURCE_SCHEMA);

export const DELETE_RESULT_SCHEMA = object({
  eliminada: { type: 'string' },
  documentos_eliminados: { type: 'integer' },
  documentos_conservados: { type: 'integer' },
});

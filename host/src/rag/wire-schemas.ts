import type { JsonSchema } from '@cerebro/sdk';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';

/** JSON Schemas of the views in `wire.ts`, field for field: the OpenAPI document and the response tests use them. */

/** Where a module brought a document from; null for uploaded files. */
const ORIGIN_SCHEMA = {
  description: 'De dónde lo trajo un módulo (una página web de `fuentes`); null para los archivos subidos.',
  oneOf: [
    { type: 'null' },
    objectSchema({
      modulo: { type: 'string', description: 'Módulo que lo añadió.' },
      fuente: nullable('string', { description: 'Id de la fuente del módulo.' }),
      url: nullable('string', { description: 'Dirección leída (tras las redirecciones).' }),
      obtenido: { type: 'string', description: 'Cuándo se leyó (ISO 8601).' },
      etag: nullable('string'),
      ultima_modificacion: nullable('string', { description: 'Cabecera Last-Modified tal como llegó.' }),
      hash: nullable('string', { description: 'SHA-256 del contenido leído.' }),
    }),
  ],
};

/** A document's free metadata: the integrator's keys, text, number or boolean values. */
export const METADATA_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean'] },
  description: 'Metadatos libres del documento (texto, número o true/false por clave).',
};

export const TAGS_SCHEMA: JsonSchema = arrayOf(
  { type: 'string' },
  'Etiquetas del documento, normalizadas (minúsculas, sin espacios de sobra).',
);

export const DOCUMENT_SCHEMA = objectSchema({
  id: { type: 'string' },
  nombre: { type: 'string' },
  tipo: { type: 'string', description: 'Tipo de contenido (MIME).' },
  formato: nullable('string'),
  bytes: { type: 'integer' },
  sha256: nullable('string'),
  estado: { enum: ['en_cola', 'procesando', 'listo', 'fallido'] },
  progreso: { type: 'number', minimum: 0, maximum: 1 },
  etapa: nullable('string', { description: 'extrayendo, indexando o vectorizando mientras se procesa.' }),
  error: { oneOf: [{ type: 'null' }, objectSchema({ codigo: nullable('string'), motivo: nullable('string') })] },
  version: { type: 'integer' },
  pasajes: { type: 'integer' },
  caracteres: { type: 'integer' },
  paginas: nullable('integer'),
  idioma: nullable('string'),
  titulo: nullable('string'),
  creado: { type: 'string' },
  actualizado: { type: 'string' },
  origen: ORIGIN_SCHEMA,
  etiquetas: TAGS_SCHEMA,
  metadatos: METADATA_SCHEMA,
});

export const DOCUMENT_PAGE_SCHEMA = objectSchema({
  documentos: arrayOf(DOCUMENT_SCHEMA),
  total: { type: 'integer' },
  limite: { type: 'integer' },
  desde: { type: 'integer' },
});

/** One file of an upload: its document record, or `rechazado` with the reason. */
export const UPLOAD_SCHEMA = objectSchema({
  documentos: arrayOf(
    {
      oneOf: [
        DOCUMENT_SCHEMA,
        objectSchema({
          nombre: { type: 'string' },
          estado: { const: 'rechazado' },
          error: objectSchema({ codigo: { type: 'string' }, motivo: { type: 'string' } }),
        }),
      ],
    },
    'En el orden recibido.',
  ),
});

export const INDEXING_STATUS_SCHEMA = objectSchema({
  estado: { enum: ['vacio', 'indexando', 'listo'] },
  listo: { type: 'boolean' },
  total: { type: 'integer' },
  en_cola: { type: 'integer' },
  procesando: { type: 'integer' },
  listos: { type: 'integer' },
  fallidos: { type: 'integer' },
  progreso: { type: 'number', minimum: 0, maximum: 1 },
  pasajes: { type: 'integer' },
  documentos: arrayOf(DOCUMENT_SCHEMA),
});

export const SOURCE_SCHEMA = objectSchema({
  n: { type: 'integer' },
  documento: { type: 'string' },
  documento_id: { type: 'string' },
  pasaje: { type: 'integer' },
  pagina: nullable('integer'),
  seccion: nullable('string'),
  puntuacion: { type: 'number' },
  extracto: { type: 'string' },
  citada: {
    type: 'boolean',
    description:
      'true: la respuesta cita este pasaje ([n]); false: otro pasaje relevante recuperado, listado después de los citados',
  },
});

export const ANSWER_SCHEMA: JsonSchema = objectSchema(
  {
    conversacion: { type: 'string' },
    respuesta: { type: 'string' },
    encontrada: { type: 'boolean' },
    fuentes: arrayOf(SOURCE_SCHEMA),
    motor: { enum: ['extractivo', 'generativo'] },
    modelo: nullable('string'),
    cache: { type: 'boolean' },
    cache_desde: { type: 'string', description: 'Solo con `cache: true`: cuándo se guardó la respuesta.' },
    creditos: { type: 'integer' },
    uso: objectSchema({
      pasajes: { type: 'integer' },
      tokens_prompt: { type: 'integer' },
      tokens_respuesta: { type: 'integer' },
      ms: { type: 'number' },
    }),
  },
  ['cache_desde'],
);

/** The answer of `POST /rag/{espacio}/buscar`. */
export const SEARCH_RESULT_SCHEMA = objectSchema({
  pasajes: arrayOf(
    objectSchema({
      posicion: { type: 'integer', description: 'Puesto en esta búsqueda (1: el mejor).' },
      texto: { type: 'string', description: 'El texto del pasaje (Markdown ligero).' },
      documento: { type: 'string' },
      documento_id: { type: 'string' },
      pasaje: { type: 'integer', description: 'Id del pasaje (estable hasta que se sustituye el documento).' },
      seccion: nullable('string', { description: 'Los títulos que lo contienen, unidos con « › ».' }),
      pagina: nullable('integer', { description: 'Página de un PDF.' }),
      puntuacion: { type: 'number', description: 'La del orden del motor; solo comparable dentro de una búsqueda.' },
      origen: ORIGIN_SCHEMA,
    }),
    'El mejor primero.',
  ),
  ms: { type: 'number', description: 'Lo que tardó la búsqueda.' },
});

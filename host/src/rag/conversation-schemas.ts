import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import { SOURCE_SCHEMA } from './wire-schemas.js';

/** JSON Schemas of the views in `conversation-views.ts`, field for field (OpenAPI document and response tests). */

const RATING_PROPERTIES = {
  valoracion: { enum: ['positiva', 'negativa'], description: '👍 positiva, 👎 negativa.' },
  comentario: nullable('string'),
  fecha: { type: 'string', description: 'Cuándo se valoró por última vez (ISO 8601).' },
};
const RATING_SCHEMA = objectSchema(RATING_PROPERTIES);

/** The answer of `POST …/conversations/{id}/valoracion`: the turn and its rating. */
export const RATED_TURN_SCHEMA = objectSchema({ turno: { type: 'integer' }, ...RATING_PROPERTIES });

const TURN_SCHEMA = objectSchema({
  turno: { type: 'integer', description: 'Número del turno en la conversación (1: la primera pregunta).' },
  pregunta: { type: 'string' },
  fecha: { type: 'string', description: 'Cuándo se preguntó (ISO 8601).' },
  respuesta: objectSchema({
    texto: { type: 'string' },
    encontrada: nullable('boolean', {
      description: 'Si los documentos contenían la respuesta; null en turnos anteriores a que se guardara.',
    }),
    relevancia: nullable('number', { description: 'Puntuación (0 a 1) de la mejor fuente; null en turnos antiguos.' }),
    cache: nullable('boolean', { description: 'Si la sirvió la caché de respuestas; null en turnos antiguos.' }),
    fuentes: arrayOf(SOURCE_SCHEMA, 'Como las devolvió la pregunta; vacías en turnos antiguos.'),
  }),
  valoracion: { oneOf: [{ type: 'null' }, RATING_SCHEMA] },
});

export const CONVERSATION_SCHEMA = objectSchema({
  id: { type: 'string' },
  creada: { type: 'string' },
  actualizada: { type: 'string' },
  turnos: arrayOf(TURN_SCHEMA, 'En orden.'),
});

export const CONVERSATION_PAGE_SCHEMA = objectSchema({
  conversaciones: arrayOf(
    objectSchema({
      id: { type: 'string' },
      creada: { type: 'string' },
      actualizada: { type: 'string', description: 'Último turno (la lista va de la más reciente a la más antigua).' },
      turnos: { type: 'integer' },
      primera_pregunta: { type: 'string' },
      sin_respuesta: { type: 'integer', description: 'Turnos cuya respuesta no estaba en los documentos.' },
      valoraciones: objectSchema({ positivas: { type: 'integer' }, negativas: { type: 'integer' } }),
    }),
  ),
  total: { type: 'integer' },
  limite: { type: 'integer' },
  desde: { type: 'integer' },
});

export const UNANSWERED_PAGE_SCHEMA = objectSchema({
  preguntas: arrayOf(
    objectSchema({
      pregunta: { type: 'string', description: 'La última forma en que se preguntó.' },
      veces: { type: 'integer', description: 'Cuántas veces se preguntó sin respuesta.' },
      ultima: { type: 'string', description: 'La última vez (ISO 8601).' },
      conversacion: { type: 'string', description: 'La conversación de la última vez.' },
    }),
    'La más repetida primero; a igualdad, la más reciente.',
  ),
  total: { type: 'integer', description: 'Preguntas distintas.' },
  limite: { type: 'integer' },
  desde: { type: 'integer' },
});

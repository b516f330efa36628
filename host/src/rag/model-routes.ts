import { objectSchema, type JsonSchema } from '@cerebro/sdk';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import type { ModelStatus } from './model-status.js';

const STATES = ['activo', 'responde', 'fallando', 'no_cargado', 'no_responde', 'rechaza_la_clave', 'sin_configurar'];

const MODEL_SCHEMA: JsonSchema = objectSchema({
  tipo: {
    enum: ['local', 'servicio', null],
    description:
      '`local`: un directorio ONNX en el servidor; `servicio`: un endpoint compatible con OpenAI; null: ninguno.',
  },
  modelo: { type: ['string', 'null'], description: 'El nombre del modelo (del directorio local o el configurado).' },
  direccion: {
    type: ['string', 'null'],
    description: 'La dirección del endpoint, sin credenciales ni consulta (null para un modelo local).',
  },
  estado: {
    enum: STATES,
    description:
      '`activo`: cargado en el servidor; `responde`, `no_responde`, `rechaza_la_clave`: lo que dijo su endpoint (`GET <dirección>/models`); `fallando`: falló en la última pregunta; `no_cargado`: configurado pero no se pudo cargar; `sin_configurar`.',
  },
  detalle: { type: 'string', description: 'Qué supone para las respuestas, en una frase.' },
});

export const MODEL_ROUTES = declareRoutes([
  {
    operationId: 'core.models',
    method: 'GET',
    path: '/api/modelos',
    access: 'owner',
    members: true,
    tag: 'core',
    summary: 'Modelos que usa el servidor y si responden',
    description:
      'Los modelos de embeddings, de reordenación y de lenguaje (respuestas) que configuró el operador, y si responden ahora: un modelo local se da por cargado o no; a un endpoint se le pide `GET /models` (como mucho una vez cada 30 s). Nunca muestra claves ni rutas del servidor. No cuesta créditos.',
    responses: {
      '200': {
        description: 'Los tres modelos y cuándo se comprobaron.',
        schema: objectSchema({
          embeddings: MODEL_SCHEMA,
          reordenacion: MODEL_SCHEMA,
          respuestas: MODEL_SCHEMA,
          comprobado: { type: 'string', format: 'date-time' },
        }),
      },
    },
  },
]);

export function modelRoutes(status: ModelStatus): HostRoute[] {
  return hostRoutes(MODEL_ROUTES, { 'core.models': () => status.view() });
}

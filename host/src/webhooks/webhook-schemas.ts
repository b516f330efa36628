import { WEBHOOK_EVENTS, type JsonSchema, type WebhookEventType } from '@cerebro/sdk';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import { MAX_WEBHOOKS_PER_SPACE } from './webhook-service.js';

/** JSON Schemas of the webhook routes' bodies and answers (views in webhook-views.ts, field for field). */

const EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

const FIELDS = {
  url: {
    type: 'string',
    minLength: 8,
    maxLength: 2000,
    pattern: '^https?://',
    description: 'Dirección http(s) pública del receptor (las privadas, de bucle local o de metadatos se rechazan).',
  },
  eventos: {
    type: 'array',
    minItems: 1,
    maxItems: EVENT_NAMES.length,
    items: { enum: EVENT_NAMES },
    description: 'Los eventos que recibe.',
  },
  descripcion: { type: 'string', maxLength: 200 },
  umbral_creditos: {
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000_000,
    description: '`creditos.bajos` se envía cuando el saldo de la cuenta baja de este valor (por defecto 100).',
  },
  activo: {
    type: 'boolean',
    description: 'false lo pausa; true lo reactiva (también tras una desactivación automática).',
  },
} as const satisfies Record<string, JsonSchema>;

export const WEBHOOK_CREATE_SCHEMA = {
  type: 'object',
  required: ['url', 'eventos'],
  properties: FIELDS,
  additionalProperties: false,
  description: `Como máximo ${MAX_WEBHOOKS_PER_SPACE} webhooks por espacio.`,
} as const satisfies JsonSchema;

export const WEBHOOK_PATCH_SCHEMA = {
  type: 'object',
  properties: FIELDS,
  additionalProperties: false,
  minProperties: 1,
} as const satisfies JsonSchema;

export const WEBHOOK_SCHEMA = objectSchema({
  id: { type: 'string' },
  url: { type: 'string' },
  eventos: arrayOf({ enum: EVENT_NAMES }),
  descripcion: { type: 'string' },
  umbral_creditos: { type: 'integer' },
  activo: { type: 'boolean' },
  desactivado: {
    description: 'Aviso de una desactivación (automática o del propietario); null si está activo.',
    oneOf: [{ type: 'null' }, objectSchema({ fecha: { type: 'string' }, motivo: { type: 'string' } })],
  },
  fallos_seguidos: { type: 'integer', description: 'Intentos fallidos desde la última entrega con éxito.' },
  creado: { type: 'string' },
  actualizado: { type: 'string' },
});

export const WEBHOOK_WITH_SECRET_SCHEMA = objectSchema({
  ...(WEBHOOK_SCHEMA.properties as Record<string, JsonSchema>),
  secreto: { type: 'string', description: 'El secreto de firma (`whsec_…`). Solo se muestra ahora.' },
});

export const WEBHOOK_LIST_SCHEMA = objectSchema({ webhooks: arrayOf(WEBHOOK_SCHEMA) });

export const SECRET_SCHEMA = objectSchema({
  secreto: { type: 'string', description: 'El nuevo secreto. Solo se muestra ahora.' },
  anterior_valido_hasta: {
    type: 'string',
    description: 'Hasta cuándo las entregas llevan también una firma con el secreto anterior.',
  },
});

export const DELIVERY_SCHEMA = objectSchema({
  id: { type: 'string' },
  evento: {
    ...objectSchema({
      id: { type: 'string', description: 'Id del evento: el mismo en cada reintento, para descartar duplicados.' },
      tipo: { enum: EVENT_NAMES },
      creado: { type: 'string' },
      espacio: { type: 'string' },
      datos: { type: 'object' },
    }),
    description: 'El cuerpo enviado, tal cual.',
  },
  estado: { enum: ['pendiente', 'entregada', 'fallida'] },
  intentos: { type: 'integer' },
  proximo_intento: nullable('string'),
  ultimo_estado_http: nullable('integer'),
  ultimo_error: nullable('string'),
  creada: { type: 'string' },
  terminada: nullable('string'),
  historial: arrayOf(
    objectSchema({
      n: { type: 'integer' },
      fecha: { type: 'string' },
      estado_http: nullable('integer'),
      error: nullable('string'),
      ms: { type: 'integer' },
      manual: { type: 'boolean', description: 'Un reenvío a mano.' },
    }),
  ),
});

export const DELIVERY_PAGE_SCHEMA = objectSchema({
  entregas: arrayOf(DELIVERY_SCHEMA, 'La más reciente primero.'),
  total: { type: 'integer' },
  limite: { type: 'integer' },
  desde: { type: 'integer' },
});

import { listSchema as list, objectSchema as object, pageSchema as page, type JsonSchema } from '@cerebro/sdk';
import { PRODUCT_SCHEMA } from './schemas.js';

/** JSON Schemas of what the ventas routes answer (`views.ts` and the route handlers), for the OpenAPI document. */

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

/** A catalog product as stored: the body of PUT plus its `id`. */
const STORED_PRODUCT: JsonSchema = {
  ...PRODUCT_SCHEMA,
  required: [...(PRODUCT_SCHEMA.required as string[]), 'id'],
  properties: { ...(PRODUCT_SCHEMA.properties as Record<string, JsonSchema>), id: { type: 'string' } },
  additionalProperties: true,
};

export const PRODUCT_PAGE_SCHEMA = page('productos', STORED_PRODUCT);

export const IMPORT_RESULT_SCHEMA = object(
  {
    importados: { type: 'integer' },
    creados: { type: 'integer' },
    actualizados: { type: 'integer' },
    eliminados: { type: 'integer' },
    errores: list(object({ linea: { type: 'integer' }, mensaje: { type: 'string' } })),
    simulado: { type: 'boolean', description: 'Presente (true) solo en una simulación: no se cambió nada.' },
  },
  ['simulado'],
);

const QUOTE_SCHEMA = object({
  lineas: list(
    object({
      producto: { type: 'string' },
      nombre: { type: 'string' },
      cantidad: { type: 'integer' },
      precio: { type: 'number' },
      importe: { type: 'number' },
    }),
  ),
  moneda: nullable('string'),
  subtotal: { type: 'number' },
  envio: { oneOf: [{ type: 'null' }, object({ ciudad: { type: 'string' }, costo: { type: 'number' } })] },
  total: { type: 'number' },
  sin_envio: list({ type: 'string' }),
  retirados: list({ type: 'string' }),
});

const LEAD_FIELDS: Record<string, JsonSchema> = {
  conversacion: { type: 'string' },
  estado: { enum: ['activa', 'derivada'] },
  motivo_derivacion: { enum: ['pedido', 'sin_respuesta', null] },
  contacto: object({ nombre: { type: 'string' }, telefono: { type: 'string' }, email: { type: 'string' } }, [
    'nombre',
    'telefono',
    'email',
  ]),
  ciudad: nullable('string'),
  cotizacion: QUOTE_SCHEMA,
  num_mensajes: { type: 'integer' },
  creada: { type: 'string' },
  actualizada: { type: 'string' },
};

export const CONVERSATION_SCHEMA = object(LEAD_FIELDS);

export const CONVERSATION_PAGE_SCHEMA = page('conversaciones', CONVERSATION_SCHEMA);

const MESSAGE_FIELDS: Record<string, JsonSchema> = {
  rol: {
    enum: ['cliente', 'agente', 'persona'],
    description: '`persona`: una respuesta escrita por alguien de la tienda en una conversación derivada.',
  },
  texto: { type: 'string' },
  tipo: nullable('string'),
  fecha: { type: 'string' },
};

export const CONVERSATION_WITH_MESSAGES_SCHEMA = object({
  ...LEAD_FIELDS,
  mensajes: list(object(MESSAGE_FIELDS)),
});

/** The answer of a person's reply: the stored message and its conversation. */
export const PERSON_MESSAGE_SCHEMA = object({ conversacion: { type: 'string' }, ...MESSAGE_FIELDS });

export const TURN_SCHEMA = object({
  ...LEAD_FIELDS,
  respuesta: { ...nullable('string'), description: 'null mientras la conversación está con una persona.' },
  tipo: nullable('string'),
  marca: object({ aplicada: { type: 'boolean' }, origen: { type: 'string' } }),
  combo_sugerido: nullable('string'),
  pregunta_cierre: nullable('string'),
  redaccion: { enum: ['plantilla', 'externa'] },
  creditos: { type: 'integer' },
});

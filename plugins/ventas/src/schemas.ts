// The ventas payloads: the host validates every JSON body against these before the handler runs (types, ranges,
// unknown fields); the handlers keep only the checks a schema cannot express. Also the OpenAPI documentation.
import type { JsonSchema } from '@cerebro/sdk';

export const LEADS_CONFIG_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    marca_activa: {
      type: 'boolean',
      description: 'El agente usa la marca del módulo marca (regla 1). Por defecto false.',
    },
    mensajes_entre_combos: {
      type: 'integer',
      minimum: 0,
      maximum: 50,
      description: 'Mensajes del cliente entre dos sugerencias de combo. Por defecto 3.',
    },
    derivar_tras_fallos: {
      type: 'integer',
      minimum: 1,
      maximum: 10,
      description: 'Preguntas seguidas sin respuesta antes de pasar la conversación a una persona. Por defecto 2.',
    },
    nombre_tienda: {
      type: 'string',
      maxLength: 80,
      description:
        'Nombre de la tienda que dice el agente sin marca, o con una marca sin nombre propio; vacío = no nombra ninguna tienda.',
    },
  },
};

export const LEADS_CONFIG_PATCH_SCHEMA: JsonSchema = { ...LEADS_CONFIG_SCHEMA, additionalProperties: false };

export const PRODUCT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['nombre', 'precio', 'moneda', 'stock'],
  properties: {
    id: { type: 'string', description: 'Igual al de la ruta (puede omitirse en PUT).' },
    nombre: { type: 'string', minLength: 1, maxLength: 120 },
    descripcion: { type: ['string', 'null'], maxLength: 1000 },
    precio: { type: 'number', minimum: 0, description: 'Precio unitario, dos decimales como máximo.' },
    moneda: { type: 'string', description: 'Código ISO 4217: COP, EUR, MXN…' },
    stock: { type: 'integer', minimum: 0 },
    envio: {
      type: ['object', 'null'],
      additionalProperties: { type: 'number', minimum: 0 },
      description: 'Costo de envío por ciudad; una ciudad ausente no tiene envío.',
    },
  },
  additionalProperties: false,
};

export const IMPORT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['csv'],
  properties: {
    csv: {
      type: 'string',
      minLength: 1,
      description:
        'Texto CSV con encabezado: id, nombre, descripcion, precio, moneda, stock, envio (`Bogotá=8000|Cali=9000`). Separador `,` o `;`.',
    },
    modo: {
      type: 'string',
      enum: ['combinar', 'reemplazar'],
      description:
        '`combinar` (por defecto) crea o sustituye por id; `reemplazar` deja solo los productos del archivo.',
    },
    parcial: {
      type: 'boolean',
      description:
        'false (por defecto): con una línea mala no se importa nada (422). true: se importan las líneas buenas y se informan las malas.',
    },
    simular: {
      type: 'boolean',
      description:
        'true: no cambia nada; responde 200 con lo que haría la importación (`creados`, `actualizados`, `eliminados`) y todas las líneas malas en `errores`, con `simulado: true`.',
    },
  },
  additionalProperties: false,
};

export const MESSAGE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['mensaje'],
  properties: {
    mensaje: { type: 'string', minLength: 1, maxLength: 2000, description: 'Lo que escribió el cliente.' },
    conversacion: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 100,
      description: 'Id de una conversación anterior para continuarla; sin él se abre una nueva.',
    },
    contacto: {
      type: ['object', 'null'],
      properties: {
        nombre: { type: 'string', minLength: 1, maxLength: 120 },
        telefono: { type: 'string', minLength: 1, maxLength: 40 },
        email: { type: 'string', minLength: 1, maxLength: 200 },
      },
      additionalProperties: false,
      description: 'Datos del cliente; los campos enviados sustituyen a los guardados.',
    },
  },
  additionalProperties: false,
};

/** A person's reply into a conversation handed off to them. */
export const PERSON_REPLY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['texto'],
  properties: {
    texto: { type: 'string', minLength: 1, maxLength: 2000, description: 'Lo que responde la persona de la tienda.' },
  },
  additionalProperties: false,
};

// Request bodies of the landing routes: the host validates every body against these before credits and the
// handler (types, ranges, unknown fields); handlers keep only the checks a schema cannot express.
import { LENGTHS, SECTION_IDS, THEME_IDS } from './model.js';

export const CREATE_SCHEMA = {
  type: 'object',
  required: ['objetivo'],
  additionalProperties: false,
  properties: {
    objetivo: {
      type: 'string',
      minLength: 3,
      maxLength: 500,
      description:
        'Qué debe conseguir la página (vender, captar contactos…). Guía la composición; no se publica tal cual.',
    },
    tema: {
      type: 'string',
      minLength: 2,
      maxLength: 120,
      description: 'De qué trata la página. Obligatorio si no hay `productos`.',
    },
    productos: {
      type: 'array',
      maxItems: 12,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 100 },
      description: 'Ids de productos del catálogo de ventas, en el orden en que se muestran.',
    },
    publico: {
      type: 'string',
      minLength: 2,
      maxLength: 200,
      description: 'A quién va dirigida («corredores principiantes»).',
    },
    secciones: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: [...SECTION_IDS] },
      description: 'Secciones en orden. Por defecto: las que tienen datos.',
    },
    cta: {
      type: 'object',
      additionalProperties: false,
      properties: {
        texto: { type: 'string', minLength: 2, maxLength: 60, description: 'Texto del botón.' },
        url: { type: 'string', minLength: 1, maxLength: 500, description: 'https://…, http://…, mailto:… o tel:…' },
      },
    },
    contacto: {
      type: 'string',
      minLength: 3,
      maxLength: 120,
      description: 'Correo o teléfono para la sección `contacto`.',
    },
    idioma: {
      type: 'string',
      enum: ['es', 'en'],
      description: 'Idioma de la página (atributo lang y textos fijos). Por defecto `es`.',
    },
    tema_color: { type: 'string', enum: [...THEME_IDS], description: 'Tema de color. Por defecto `azul`.' },
    longitud: { type: 'string', enum: [...LENGTHS], description: 'Cantidad de texto. Por defecto `media`.' },
  },
} as const;

export const COMPLETE_SCHEMA = {
  type: 'object',
  required: ['respuestas'],
  additionalProperties: false,
  properties: {
    respuestas: {
      type: 'object',
      minProperties: 1,
      maxProperties: 30,
      additionalProperties: { type: 'string', minLength: 1, maxLength: 500 },
      description: 'Respuesta por id de pregunta (`preguntas[].id` de la versión en `faltan_datos`).',
    },
  },
} as const;

export const REFINE_SCHEMA = {
  type: 'object',
  required: ['instrucciones'],
  additionalProperties: false,
  properties: {
    instrucciones: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description:
        'Sin modelo: instrucciones del conjunto documentado, una por línea o separadas por «;». Con modelo: texto libre.',
    },
  },
} as const;

/** The largest hand-edited page accepted for checking; over 60 KB it is answered with the size problem, not 413. */
export const VALIDATE_MAX_CHARS = 400_000;

export const VALIDATE_SCHEMA = {
  type: 'object',
  required: ['html'],
  additionalProperties: false,
  properties: {
    html: {
      type: 'string',
      minLength: 1,
      maxLength: VALIDATE_MAX_CHARS,
      description: 'El documento HTML completo, editado a mano.',
    },
  },
} as const;

export const HTML_QUERY = {
  type: 'object',
  properties: {
    version: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: 'Número de versión; por defecto la última lista.',
    },
  },
} as const;

export const PUBLISH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    version: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: 'Versión lista que se publica; por defecto la última lista.',
    },
    formulario: {
      type: 'boolean',
      description: 'Añadir el formulario de contacto (nombre, contacto, mensaje, consentimiento). Por defecto `true`.',
    },
  },
} as const;

/** What the published page's form sends: strings, as a browser sends a form (`application/x-www-form-urlencoded`). */
export const LEAD_FORM_SCHEMA = {
  type: 'object',
  required: ['nombre', 'contacto', 'consentimiento'],
  additionalProperties: false,
  properties: {
    nombre: { type: 'string', minLength: 1, maxLength: 120, description: 'Nombre de quien escribe.' },
    contacto: { type: 'string', minLength: 3, maxLength: 200, description: 'Correo electrónico o teléfono.' },
    mensaje: { type: 'string', maxLength: 2000, description: 'Mensaje (opcional).' },
    consentimiento: {
      type: 'string',
      enum: ['si'],
      description: 'La casilla de consentimiento marcada (`si`); sin ella no se guarda nada.',
    },
    sitio_web: {
      type: 'string',
      maxLength: 200,
      description: 'Campo trampa, oculto a las personas: si llega con texto, se responde igual y no se guarda.',
    },
  },
} as const;

/** Largest form body accepted (bytes): 2000 characters of message in any script, urlencoded, fit. */
export const LEAD_FORM_MAX_BYTES = 16 * 1024;

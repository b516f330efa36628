import type { JsonSchema } from '@cerebro/sdk';

const strings = { type: 'array', items: { type: 'string' } };

const IDENTIDAD = {
  type: 'object',
  properties: { nombre_agente: { type: 'string' }, rol: { type: 'string' }, linea: { type: 'string' } },
};
const ESTILO = {
  type: 'object',
  properties: {
    tono: {
      ...strings,
      description: 'cercano, formal, amable, entusiasta, profesional, divertido, sereno, tecnico (máx. 3)',
    },
    rasgos: {
      ...strings,
      description:
        'empatico, resolutivo, paciente, experto, optimista, detallista, servicial, honesto, creativo, directo (máx. 5)',
    },
    emojis_permitidos: strings,
    emojis_obligatorios: strings,
    max_lineas: { type: 'integer', minimum: 1, maximum: 20 },
    solo_texto_plano: { type: 'boolean' },
  },
};
const TACTICAS = {
  type: 'object',
  properties: {
    upsell_activo: { type: 'boolean' },
    upsell_combos: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'clave = texto que contiene el nombre del producto, valor = combo',
    },
    upsell_argumento: { type: 'string' },
    upsell_plantilla: { type: 'string', description: 'con {combo} y opcionalmente {argumento}' },
    pregunta_cierre_obligatoria: { type: 'boolean' },
    preguntas_cierre: strings,
  },
};

export const BRAND_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    activo: { type: 'boolean' },
    identidad: IDENTIDAD,
    estilo: ESTILO,
    tacticas: TACTICAS,
  },
};

const closed = (schema: JsonSchema): JsonSchema => ({ ...schema, additionalProperties: false });

/** Every field present: what GET and PATCH answer is the whole brand, defaults filled in. */
const complete = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  required: Object.keys(schema.properties as Record<string, JsonSchema>),
});

/** The brand as GET and PATCH answer it. */
export const BRAND_RESPONSE_SCHEMA: JsonSchema = complete({
  ...BRAND_SCHEMA,
  properties: {
    ...(BRAND_SCHEMA.properties as Record<string, JsonSchema>),
    identidad: complete(IDENTIDAD),
    estilo: complete(ESTILO),
    tacticas: complete(TACTICAS),
  },
});

/**
 * The PATCH body, validated by the host before the handler: the brand's fields and each section's, nothing else
 * (unknown fields are a 422 naming them). What a schema cannot say (vocabularies, emojis, figures in texts) is
 * checked by `applyBrandPatch`.
 */
export const BRAND_PATCH_SCHEMA: JsonSchema = closed({
  ...BRAND_SCHEMA,
  properties: {
    ...(BRAND_SCHEMA.properties as Record<string, JsonSchema>),
    identidad: closed(IDENTIDAD),
    estilo: closed(ESTILO),
    tacticas: closed(TACTICAS),
  },
});

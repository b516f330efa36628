import type { JsonSchema } from '@cerebro/sdk';

/** Small builders for the response schemas of the OpenAPI document. */
export const object = (properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema => ({
  type: 'object', required: Object.keys(properties).filter((k) => !optional.includes(k)), properties,
});
export const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, 'null'], ...extra });
export const list = (items: JsonSchema, description?: string): JsonSchema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const page = (name: string, items: JsonSchema): JsonSchema =>
  object({ [name]: list(items), total: { type: 'integer' }, limite: { type: 'integer' }, desde: { type: 'integer' } });
export const error422 = { '422': { description: 'Datos no válidos: lista `[{loc, msg, type}]` que nombra cada campo.' } };
export const error404 = (what: string) => ({ '404': { description: `${what} no encontrada.` } });

import type { JsonSchema } from '@cerebro/sdk';

/**
 * A response object whose fields are all always present (except `optional`): declaring them required lets a
 * generated client type them as non-optional, and lets the response-schema test catch a field that disappears.
 */
export const objectSchema = (
  properties: Record<string, JsonSchema>,
  optional: readonly string[] = [],
  description?: string,
): JsonSchema => ({
  type: 'object',
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
  ...(description ? { description } : {}),
});

export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});

export const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, 'null'], ...extra });

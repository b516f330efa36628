import type { JsonSchema, RouteDeclaration } from './manifest.js';

// Builders for what a route declares it answers (`responses`), which every plugin with typed answers had written
// for itself: the OpenAPI document shows these schemas, and the suite checks real answers against them.

/** One declared answer of a route, by status. */
export type RouteResponses = NonNullable<RouteDeclaration['responses']>;

/** An object whose fields are all `required` except those in `optional`. */
export function objectSchema(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return { type: 'object', required: Object.keys(properties).filter((k) => !optional.includes(k)), properties };
}

/** An array of `items`. */
export function listSchema(items: JsonSchema, description?: string): JsonSchema {
  return { type: 'array', items, ...(description ? { description } : {}) };
}

/** A page of a paged listing (see `pagingQuery`): the items under `name`, with `total`, `limite` and `desde`. */
export function pageSchema(name: string, items: JsonSchema): JsonSchema {
  return objectSchema({
    [name]: listSchema(items),
    total: { type: 'integer' },
    limite: { type: 'integer' },
    desde: { type: 'integer' },
  });
}

/** An error answer a handler gives (`404`, `409`, …), with the `Error` body of the catalogue. */
export function errorResponse(status: `${4 | 5}${number}`, description: string): RouteResponses {
  return { [status]: { description } };
}

/** The 422 of a route whose body or query the host validates. */
export const VALIDATION_RESPONSE: RouteResponses = errorResponse(
  '422',
  'Datos no válidos: lista `[{loc, msg, type}]` que nombra cada campo.',
);

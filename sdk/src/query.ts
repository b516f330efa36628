import type { JsonSchema } from './manifest.js';

/**
 * A route's query parameters as data: a JSON Schema object whose properties are the parameter names. The host
 * validates every request against it (coercing the text of the URL to integers, numbers and booleans, filling
 * `default`s) before the handler runs, answers 422 with `loc: ["query", name]` otherwise, and lists the
 * parameters in the OpenAPI document. Parameters not declared are ignored and never reach the handler.
 */
export interface QuerySchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
}

/** The largest row offset any list accepts: beyond it SQLite's 64-bit integers and JavaScript's exact ones part. */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/** `?limite=N&desde=M`, the paging of every list: `limite` 1..`maxLimit` (default `defaultLimit`), `desde` >= 0. */
export function pagingQuery(defaultLimit: number, maxLimit: number) {
  return {
    limite: {
      type: 'integer',
      minimum: 1,
      maximum: maxLimit,
      default: defaultLimit,
      description: `Elementos por página (1 a ${maxLimit}).`,
    },
    desde: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_OFFSET,
      default: 0,
      description: 'Elementos que se saltan desde el principio.',
    },
  } as const satisfies Record<string, JsonSchema>;
}

/** Paging values as a handler reads them once the host has validated the query against `pagingQuery`. */
export interface Page {
  limite: number;
  desde: number;
}

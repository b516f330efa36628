import { HOSTILE_SEGMENTS, PROTOTYPE_NAMES, QUERY_PARAMETERS, WRONG_TYPE_VALUES } from './hostile-input.js';
import { jsonText, num, type JsonNode } from './json-text.js';
import { fillPath, type Operation } from './openapi-operations.js';
import type { RawRequest } from './raw-http.js';

/** The query values swept one parameter at a time (the random fuzz draws from the longer EDGE_NUMBERS). */
const SWEPT_QUERY_VALUES = ['1e20', '-1', 'NaN', 'abc', '', '1.5', '9'.repeat(400), 'Infinity', '%00'];

/** One request of the sweep, with the prototype names it sends as undeclared top-level keys. */
export interface EdgeCase {
  request: RawRequest;
  undeclaredPrototypeKeys: string[];
  /** The same body with those keys renamed to an ordinary unknown name. */
  ordinary?: RawRequest;
}

/**
 * Every edge the random fuzz might miss by chance, once each: each query parameter with each edge value, each
 * path parameter with each hostile segment, each prototype name as a key (top level and inside object fields),
 * and each declared field with each wrong-typed value.
 */
export function edgeCases(op: Operation, credential: string, real: Record<string, string[]>): EdgeCase[] {
  const realValues = Object.fromEntries(op.params.map((p) => [p, encodeURIComponent(real[p]?.[0] ?? 'x')]));
  const base = `/api${fillPath(op.path, realValues, true)}`;
  const headers = { authorization: `Bearer ${credential}` };
  const cases: EdgeCase[] = [];
  const plain = (
    path: string,
    body?: JsonNode,
    undeclaredPrototypeKeys: string[] = [],
    ordinary?: JsonNode,
  ): EdgeCase => ({
    request: {
      method: op.method,
      path,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : jsonText(body),
    },
    undeclaredPrototypeKeys,
    ordinary:
      ordinary === undefined
        ? undefined
        : {
            method: op.method,
            path,
            headers: { ...headers, 'content-type': 'application/json' },
            body: jsonText(ordinary),
          },
  });

  if (op.method === 'GET') {
    const encode = (value: string) => (/^%/.test(value) ? value : encodeURIComponent(value));
    for (const name of QUERY_PARAMETERS)
      for (const value of SWEPT_QUERY_VALUES) cases.push(plain(`${base}?${name}=${encode(value)}`));
    for (const value of PROTOTYPE_NAMES)
      cases.push(
        plain(`${base}?${QUERY_PARAMETERS.map((name) => `${name}=${encode(value)}`).join('&')}&${encode(value)}=1`),
      );
  }
  // A hostile space id stops at the reach check on owner routes; on admin routes it is an ordinary id to look up.
  for (const param of op.params.filter((p) => p !== 'espacio' || op.access === 'admin')) {
    for (const segment of [...HOSTILE_SEGMENTS, ...PROTOTYPE_NAMES])
      cases.push(plain(`/api${fillPath(op.path, { ...realValues, [param]: segment }, true)}`));
  }
  if (op.bodyType === 'application/json') {
    const properties = Object.entries(op.bodySchema?.properties ?? {});
    for (const key of PROTOTYPE_NAMES) {
      const declared = properties.some(([name]) => name === key);
      for (const value of [num('1'), null, { entries: [['x', num('1')]] } as JsonNode]) {
        cases.push(
          plain(base, { entries: [[key, value]] }, declared ? [] : [key], { entries: [['campo_inventado', value]] }),
        );
      }
      for (const [name, schema] of properties) {
        if (schema.type === 'object') cases.push(plain(base, { entries: [[name, { entries: [[key, num('1')]] }]] }));
      }
    }
    for (const [name] of properties)
      for (const value of WRONG_TYPE_VALUES) cases.push(plain(base, { entries: [[name, value]] }));
  }
  return cases;
}

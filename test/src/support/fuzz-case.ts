import fc from 'fast-check';
import { fillPath, type Operation } from './openapi-operations.js';
import {
  hostileQuery,
  hostileSegment,
  hostileString,
  jsonBodyFor,
  malformedJson,
  percentEncode,
  PROTOTYPE_NAMES,
} from './hostile-input.js';
import { jsonText, type JsonNode } from './json-text.js';
import { hostileMultipart } from './multipart.js';
import type { RawRequest } from './raw-http.js';

/** Credentials and real ids the generator may use next to the hostile ones. */
export interface FuzzWorld {
  /** Credential that normally reaches the route (console session for owner routes, operator for admin). */
  credential: (op: Operation) => string;
  /** Other credentials: keys of the same owner, so headers can be mixed. */
  otherCredentials: string[];
  /** Real values per path parameter name, per access kind (`space`/`owner` vs `admin`). */
  realParams: (op: Operation) => Record<string, string[]>;
}

export interface FuzzCase {
  request: RawRequest;
  /** Prototype names sent as top-level keys the route's schema does not declare. */
  undeclaredPrototypeKeys: string[];
  /** The same request with those keys renamed to ordinary unknown names, to see whether the route refuses those. */
  withOrdinaryKeys(): RawRequest;
  /** A one-line description for failure messages. */
  toString(): string;
}

const latin1Header = (s: string) => /^[\t\x20-\x7e]*$/.test(s);

const garbageAuthorization = fc.constantFrom(
  'Bearer __proto__',
  'Bearer constructor',
  `Bearer crb_0000000000000000.${'A'.repeat(43)}`,
  'Basic YTpi',
  'Bearer',
  '',
  `Bearer ${'a'.repeat(5000)}`,
  'Bearer crb_.',
  'bearer  crb_x.y',
  'Bearer cra_0123456789abcdef.x',
);

function authorization(op: Operation, world: FuzzWorld): fc.Arbitrary<string | string[]> {
  const own = `Bearer ${world.credential(op)}`;
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(own) },
    { weight: 1, arbitrary: fc.constantFrom(...world.otherCredentials.map((c) => `Bearer ${c}`)) },
    { weight: 1, arbitrary: garbageAuthorization },
    { weight: 1, arbitrary: garbageAuthorization.map((g) => [own, g]) },
  );
}

const extraHeaders: fc.Arbitrary<Partial<Record<string, string | string[]>>> = fc.record(
  {
    'x-request-id': fc.oneof(
      fc.constantFrom('__proto__', 'x'.repeat(2000), '', '../../x'),
      hostileString.filter(latin1Header),
      fc.constant<string[]>(['a', 'b']),
    ),
    'x-relleno': fc.constantFrom('a'.repeat(8000), 'b'.repeat(12_000)),
    'x-forwarded-for': fc.constantFrom('__proto__', '1.2.3.4, 5.6.7.8', '::ffff:127.0.0.1', 'x'.repeat(500)),
    accept: fc.constantFrom('*/*', 'text/html', '__proto__', 'application/json;q=NaN'),
    'accept-language': fc.constantFrom('es', '__proto__', '*;q=1e20'),
  },
  { requiredKeys: [] },
);

const jsonTypes = fc.constantFrom<string | string[]>(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'APPLICATION/JSON',
  ['application/json', 'text/plain'],
  'application/json; __proto__=x',
);

interface Body {
  contentType?: string | string[];
  data: string | Buffer;
  node?: JsonNode;
}

/**
 * For a route whose space is a body field (`Operation.spaceField`), the real space put in that field of most object
 * bodies, as `{espacio}` is weighted in paths: otherwise nearly every case stops at the reach check.
 */
function withRealSpace(op: Operation, space: string | undefined): fc.Arbitrary<JsonNode> {
  const nodes = jsonBodyFor(op.bodySchema);
  const field = op.spaceField;
  if (!field || space === undefined) return nodes;
  return fc.tuple(nodes, fc.nat(3)).map(([node, dice]) => {
    if (dice === 0 || !node || typeof node !== 'object' || !('entries' in node)) return node;
    return { entries: [...node.entries.filter(([k]) => k !== field), [field, space] as [string, JsonNode]] };
  });
}

function body(op: Operation, space?: string): fc.Arbitrary<Body | undefined> {
  const json = fc.tuple(withRealSpace(op, space), jsonTypes).map(
    ([node, contentType]): Body => ({
      contentType,
      data: jsonText(node),
      node,
    }),
  );
  const malformed = malformedJson.map((data) => ({ contentType: 'application/json', data }));
  const multi = hostileMultipart.map((m) => ({ contentType: m.contentType, data: m.body }));
  if (op.bodyType === 'multipart/form-data')
    return fc.oneof(
      { weight: 6, arbitrary: multi },
      { weight: 1, arbitrary: json },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  if (op.bodyType === 'application/json')
    return fc.oneof(
      { weight: 6, arbitrary: json },
      { weight: 2, arbitrary: malformed },
      { weight: 1, arbitrary: multi },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  return fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: json });
}

function pathValue(name: string, real: string[]): fc.Arbitrary<string> {
  const reals = real.map(percentEncode);
  if (reals.length === 0) return hostileSegment;
  // The space must usually be right, or every case stops at the reach check before the handler.
  const weight = name === 'espacio' ? 6 : 2;
  return fc.oneof(
    { weight, arbitrary: fc.constantFrom(...reals) },
    { weight: 2, arbitrary: hostileSegment },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  );
}

/** Hostile requests for one operation of the OpenAPI document. */
export function fuzzCases(op: Operation, world: FuzzWorld): fc.Arbitrary<FuzzCase> {
  const real = world.realParams(op);
  const values = fc.record(Object.fromEntries(op.params.map((p) => [p, pathValue(p, real[p] ?? [])])));
  const query =
    op.method === 'GET'
      ? fc.option(hostileQuery, { freq: 4, nil: undefined })
      : fc.option(hostileQuery, { freq: 1, nil: undefined });
  return fc
    .tuple(values, query, authorization(op, world), extraHeaders, body(op, real.espacio?.[0]))
    .map(([params, q, auth, headers, b]) => {
      const path = `/api${fillPath(op.path, params as Record<string, string>, true)}${q === undefined ? '' : `?${q}`}`;
      const all = { ...headers, authorization: auth } as Record<string, string | string[]>;
      if (b?.contentType !== undefined) all['content-type'] = b.contentType;
      const request: RawRequest = { method: op.method, path, headers: all, body: b?.data };
      const declared = new Set(Object.keys(op.bodySchema?.properties ?? {}));
      const isUndeclaredPrototypeName = (k: string) =>
        (PROTOTYPE_NAMES as readonly string[]).includes(k) && !declared.has(k);
      const entries =
        op.bodyType === 'application/json' && b?.node && typeof b.node === 'object' && 'entries' in b.node
          ? b.node.entries
          : [];
      const undeclaredPrototypeKeys = entries.map(([k]) => k).filter(isUndeclaredPrototypeName);
      const withOrdinaryKeys = (): RawRequest => ({
        ...request,
        body: jsonText({
          entries: entries.map(([k, v], i): [string, JsonNode] => [
            isUndeclaredPrototypeName(k) ? `campo_inventado_${i}` : k,
            v,
          ]),
        }),
      });
      return {
        request,
        undeclaredPrototypeKeys,
        withOrdinaryKeys,
        toString: () => {
          const shown = {
            ...all,
            authorization: '<credential>',
            'x-relleno': headers['x-relleno'] && `<${headers['x-relleno'].length} bytes>`,
          };
          const data = b === undefined ? '' : Buffer.isBuffer(b.data) ? b.data.toString('latin1') : b.data;
          return elide(`${op.method} ${path} headers=${JSON.stringify(shown)} body=${JSON.stringify(data)}`);
        },
      };
    });
}

/** Shortens long repeats (`xxxx…`, `%C3%B1%C3%B1…`) so a failure message shows the whole request. */
function elide(text: string): string {
  return text.replace(/(.{1,6}?)\1{7,}/g, (run, unit: string) => `${unit}…×${run.length / unit.length}`).slice(0, 1500);
}

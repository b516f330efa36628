import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations.js';
import { num, type JsonNode } from './json-text.js';

/** Names that reach Object.prototype when code indexes plain objects with caller input. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
] as const;

const BIDI_AND_CONTROLS = [
  '\u202E',
  '\u202Dx\u202C',
  '\u2066a\u2069',
  '\u200F',
  '\u061C',
  '\uFEFF',
  '\u0000',
  'a\u0000b',
  '\u001B[31m',
  '\r\n',
  '\u2028',
];

/** Strings a hostile caller sends as values (and keys): prototype names, numbers in text, controls, paths, huge. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.constantFrom('', ' ', '1e20', '-1', 'NaN', 'Infinity', '-0', '0x1F', '1_000', 'null', 'true', '[]', '{}'),
  fc.constantFrom(...BIDI_AND_CONTROLS),
  fc.constantFrom(
    '../../etc/passwd',
    '..\\..\\win.ini',
    '/etc/passwd',
    '％２ｅ',
    '／',
    '%00',
    '%2e%2e%2f',
    '\uD800',
    '\uDFFF\uD800',
  ),
  fc.constantFrom("' OR 1=1 --", '"; DROP TABLE x; --', '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '%s%n'),
  fc.constantFrom('x'.repeat(5000), 'ñ'.repeat(4001), '\u202E'.repeat(300)),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Numbers at the edges, some as literals JSON.stringify would never write. */
export const hostileNumber: fc.Arbitrary<JsonNode> = fc.oneof(
  fc.constantFrom(1e20, -1, 0, 0.5, -0.01, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 0.1 + 0.2).map(num),
  fc
    .constantFrom('1e400', '-1e400', '-0', '1E-400', '123456789012345678901234567890', '0.000000000000000000001')
    .map(num),
  fc.integer().map(num),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(num),
);

/** Any hostile JSON value, nested a little: wrong types everywhere, prototype names as keys. */
export const hostileValue: fc.Arbitrary<JsonNode> = fc.letrec<{ value: JsonNode }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => ({ items })),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), hostileString), tie('value')), { maxLength: 3 })
      .map((entries) => ({ entries })),
  ),
})).value;

/** A value that fits the schema, so a body can get past the first check and reach deeper validation. */
function plausible(schema: JsonSchema | undefined): fc.Arbitrary<JsonNode> {
  if (!schema) return hostileValue;
  if (schema.enum) return fc.constantFrom(...(schema.enum as JsonNode[]));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return fc.string({ maxLength: Math.min(schema.maxLength ?? 30, 30) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000 }).map(num);
    case 'number':
      return fc.double({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000, noNaN: true }).map(num);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(schema.items), { maxLength: 3 }).map((items) => ({ items }));
    case 'object':
      return objectFor(schema);
    default:
      return hostileValue;
  }
}

/** Each declared property is left out, given a plausible value or a hostile one; prototype names join as keys. */
function objectFor(schema: JsonSchema): fc.Arbitrary<JsonNode> {
  const declared = Object.entries(schema.properties ?? {}).map(([name, sub]) =>
    fc.option(
      fc.oneof(plausible(sub), hostileValue).map((v): [string, JsonNode] => [name, v]),
      { nil: undefined, freq: 3 },
    ),
  );
  const extra = fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES), hostileValue), { maxLength: 2 });
  return fc.tuple(fc.tuple(...declared), extra, fc.boolean()).map(([fields, protoEntries, protoFirst]) => {
    const present = fields.filter((f): f is [string, JsonNode] => f !== undefined);
    return { entries: protoFirst ? [...protoEntries, ...present] : [...present, ...protoEntries] };
  });
}

/** A JSON body for the schema: mostly shaped like it with hostile parts, sometimes not an object at all. */
export function jsonBodyFor(schema: JsonSchema | undefined): fc.Arbitrary<JsonNode> {
  return fc.oneof(
    { weight: 6, arbitrary: schema ? objectFor(schema) : hostileValue },
    { weight: 2, arbitrary: hostileValue },
    {
      weight: 1,
      arbitrary: fc.constant<JsonNode>({
        entries: [
          [
            '__proto__',
            {
              entries: [
                ['admin', true],
                ['permiso', 'escribe'],
              ],
            },
          ],
        ],
      }),
    },
  );
}

/** Body texts that are not valid JSON at all. */
export const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '',
  '\u0000',
  'nul',
  '{"a":1}{"b":2}',
  '['.repeat(5000),
  '{"a":"\\ud800"}',
  '\uFEFF{}',
  "{'a':1}",
);

/** Values for numeric and enum query parameters. */
export const EDGE_NUMBERS = [
  '1e20',
  '-1',
  'NaN',
  'abc',
  '',
  '0',
  '9'.repeat(400),
  '1.5',
  '0x10',
  'Infinity',
  '-0',
  ' 5',
  '1e-7',
  '%00',
  '%E2%80%AE',
];

/** The paging and filter parameters the routes read, each with an edge value: the likeliest to reach a handler. */
export const QUERY_PARAMETERS = ['desde', 'limite', 'movimientos', 'estado', 'modo'];
const knownParameter = fc.tuple(
  fc.constantFrom(...QUERY_PARAMETERS),
  fc.oneof(fc.constantFrom(...EDGE_NUMBERS), fc.constantFrom(...PROTOTYPE_NAMES)),
);

/** Anything else: array and nested notations, prototype names, hostile text on either side. */
const oddParameter = fc.tuple(
  fc.oneof(
    fc.constantFrom('desde[]', '__proto__[x]', 'limite[__proto__]', 'constructor[prototype]'),
    fc.constantFrom(...PROTOTYPE_NAMES),
    hostileString,
  ),
  fc.oneof(fc.constantFrom(...EDGE_NUMBERS), hostileString),
);

/** A query string of odd parameters (already encoded, without `?`); repeated names are allowed on purpose. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 3, arbitrary: knownParameter }, { weight: 1, arbitrary: oddParameter }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((pairs) => pairs.map(([k, v]) => `${encodeQueryPart(k)}=${encodeQueryPart(v)}`).join('&'));

/**
 * Percent-encodes any string, lone surrogates included: encodeURIComponent throws on those, so each is sent as the
 * bytes of its code unit (`%ED%A0%80`), which is invalid UTF-8 — one more thing a server must refuse cleanly.
 */
export function percentEncode(s: string): string {
  return s
    .split(/([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/)
    .map((piece, i) =>
      i % 2 === 1
        ? [...Buffer.from([0xed, 0xa0 | ((piece.charCodeAt(0) >> 6) & 0x1f), 0x80 | (piece.charCodeAt(0) & 0x3f)])]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(piece),
    )
    .join('');
}

/** Encodes a query key or value; percent sequences already in it (`%00`, `%E2%80%AE`) are left as the attack. */
function encodeQueryPart(s: string): string {
  return /^(%[0-9A-F]{2})+$/.test(s) ? s : percentEncode(s);
}

/** Path segments as sent on the wire: dots, encoded slashes and NULs, malformed percent escapes, prototype names. */
export const HOSTILE_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F%2E%2E',
  '..%2F..%2Fetc%2Fpasswd',
  '%2F',
  '%5C',
  'a%00b',
  '%00',
  '%E2%80%AE',
  '%',
  '%zz',
  '%C0%AF',
  '%EF%BC%8F',
  '%ED%A0%80',
  '~',
  'a;b',
  'a%3Bb',
  '1e20',
  '-1',
  'NaN',
];
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_SEGMENTS),
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.constantFrom('x'.repeat(3000), '0123456789abcdef', 'conv_0', 'prod-1'),
  hostileString.map(percentEncode),
);

/** File names a hostile client puts in multipart (written raw into the part header). */
export const hostileFileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '../../etc/passwd',
    '..',
    '.',
    '',
    'a/b.txt',
    'a\\b.txt',
    'C:\\x.txt',
    '\u202Etxt.exe',
    'nul\u0000.txt',
    'con',
    'CON.txt',
    '／etc／passwd',
    '%2e%2e%2fx.txt',
    'guía.md',
    'with "quotes".md',
    `${'x'.repeat(1000)}.txt`,
    ' .md',
    'a\r\nContent-Type: text/html\r\n.md',
  ),
  fc.constantFrom(...PROTOTYPE_NAMES),
  hostileString,
);

/** Wrong-typed or edge values for any declared body field. */
export const WRONG_TYPE_VALUES: JsonNode[] = [
  null,
  '',
  true,
  num('1e20'),
  num('-1'),
  num('1e400'),
  'NaN',
  { items: [] },
  { entries: [] },
  '\u202Etxt.exe',
  'x'.repeat(5000),
];

import { createRequire } from 'node:module';
import type AjvModule from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import {
  countOf,
  validationError,
  type JsonSchema,
  type QuerySchema,
  type QueryValue,
  type ValidationIssue,
} from '@cerebro/sdk';
import { NO_CONTROL_CHARACTERS } from './name-schema.js';

type Ajv = InstanceType<typeof AjvModule.default>;

/**
 * Shared by both validators: every problem at once, properties looked up as own properties only (a body key named
 * `valueOf` or `__proto__` is a field like any other, never something inherited), union types (`["integer",
 * "null"]`) allowed, and the annotation keywords of the OpenAPI document (`format: "binary"`, `description`) left
 * alone rather than failing a plugin's manifest at start.
 */
const COMMON: Options = {
  allErrors: true,
  ownProperties: true,
  allowUnionTypes: true,
  strict: false,
  validateFormats: false,
};

let instances: { body: Ajv; query: Ajv } | undefined;

/**
 * The two ajv instances, made with the first schema compiled: a start compiles none (host routes and the shipped
 * plugins' compile at their first request), so it neither loads ajv nor builds them. Bodies are validated as sent
 * (no coercion, no defaults, nothing changed); query parameters arrive as text, so they are coerced to the declared
 * types, with the declared defaults filled in. ajv is CommonJS with `exports.default` (the class), loaded through
 * require() because it is needed synchronously.
 */
function ajv(): { body: Ajv; query: Ajv } {
  if (!instances) {
    const Ajv = (createRequire(import.meta.url)('ajv') as typeof AjvModule).default;
    instances = { body: new Ajv({ ...COMMON }), query: new Ajv({ ...COMMON, coerceTypes: true, useDefaults: true }) };
  }
  return instances;
}

const TYPE_WORDS: Record<string, { msg: string; type: string }> = {
  integer: { msg: 'un número entero', type: 'int_type' },
  number: { msg: 'un número', type: 'float_type' },
  string: { msg: 'un texto', type: 'string_type' },
  boolean: { msg: 'true o false', type: 'bool_type' },
  object: { msg: 'un objeto JSON', type: 'dict_type' },
  array: { msg: 'una lista', type: 'list_type' },
  null: { msg: 'null', type: 'none_type' },
};

/** `/estilo/tono/0` → `["estilo", "tono", 0]` (JSON Pointer, RFC 6901). */
const pointerParts = (pointer: string): (string | number)[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((part) => {
          const name = part.replace(/~1/g, '/').replace(/~0/g, '~');
          return /^(0|[1-9][0-9]*)$/.test(name) ? Number(name) : name;
        });

const listed = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/** One ajv error as one entry of the 422 list, in Spanish, located under `root` (`body` or `query`). */
function issueOf(error: ErrorObject, root: string): ValidationIssue {
  const loc: (string | number)[] = [root, ...pointerParts(error.instancePath)];
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return { loc: [...loc, String(p.additionalProperty)], msg: 'Campo desconocido.', type: 'extra_forbidden' };
    case 'required':
      return { loc: [...loc, String(p.missingProperty)], msg: 'Campo obligatorio.', type: 'missing' };
    case 'type': {
      const types = String(p.type).split(',');
      const words = types.map((t) => TYPE_WORDS[t]?.msg ?? t);
      return { loc, msg: `Debe ser ${words.join(' o ')}.`, type: TYPE_WORDS[types[0]!]?.type ?? 'type_error' };
    }
    case 'minimum':
      return { loc, msg: `Debe ser mayor o igual que ${String(p.limit)}.`, type: 'greater_than_equal' };
    case 'exclusiveMinimum':
      return { loc, msg: `Debe ser mayor que ${String(p.limit)}.`, type: 'greater_than' };
    case 'maximum':
      return { loc, msg: `Debe ser menor o igual que ${String(p.limit)}.`, type: 'less_than_equal' };
    case 'exclusiveMaximum':
      return { loc, msg: `Debe ser menor que ${String(p.limit)}.`, type: 'less_than' };
    case 'minLength':
      return {
        loc,
        msg: `Debe tener al menos ${countOf(Number(p.limit), 'carácter', 'caracteres')}.`,
        type: 'string_too_short',
      };
    case 'maxLength':
      return {
        loc,
        msg: `Debe tener como máximo ${countOf(Number(p.limit), 'carácter', 'caracteres')}.`,
        type: 'string_too_long',
      };
    case 'minItems':
      return {
        loc,
        msg: `Debe tener al menos ${countOf(Number(p.limit), 'elemento', 'elementos')}.`,
        type: 'too_short',
      };
    case 'maxItems':
      return {
        loc,
        msg: `Debe tener como máximo ${countOf(Number(p.limit), 'elemento', 'elementos')}.`,
        type: 'too_long',
      };
    case 'minProperties':
      return { loc, msg: `Debe tener al menos ${countOf(Number(p.limit), 'campo', 'campos')}.`, type: 'too_short' };
    case 'maxProperties':
      return { loc, msg: `Debe tener como máximo ${countOf(Number(p.limit), 'campo', 'campos')}.`, type: 'too_long' };
    case 'enum':
      return { loc, msg: `Debe ser uno de: ${listed(p.allowedValues as unknown[])}.`, type: 'enum' };
    case 'const':
      return { loc, msg: `Debe ser ${JSON.stringify(p.allowedValue)}.`, type: 'literal_error' };
    case 'pattern':
      return {
        loc,
        msg:
          p.pattern === NO_CONTROL_CHARACTERS
            ? 'No puede contener caracteres de control (saltos de línea, tabuladores, NUL…).'
            : 'No tiene el formato esperado.',
        type: 'string_pattern_mismatch',
      };
    case 'multipleOf':
      return { loc, msg: `Debe ser múltiplo de ${String(p.multipleOf)}.`, type: 'multiple_of' };
    case 'uniqueItems':
      return { loc, msg: 'No puede tener elementos repetidos.', type: 'unique_items' };
    default:
      return { loc, msg: 'Valor no válido.', type: 'value_error' };
  }
}

/**
 * The 422 list of one failed validation: one entry per problem and place, in the order the fields were sent (fields
 * missing from the data last), so a client reads them as it wrote them.
 */
function issuesOf(errors: readonly ErrorObject[], root: string, data: unknown): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const issue = issueOf(error, root);
    const key = JSON.stringify([issue.loc, issue.type]);
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  if (typeof data !== 'object' || data === null) return issues;
  const order = new Map(Object.keys(data).map((name, i) => [name, i]));
  const rank = (issue: ValidationIssue) => order.get(String(issue.loc[1])) ?? order.size;
  return issues.sort((a, b) => rank(a) - rank(b));
}

/**
 * Checks a parsed JSON body; throws the 422 list when it does not match. Compiled once, at the route's first request:
 * compiling every host route's schemas when they were mounted was about a tenth of the CPU of a start. A plugin's
 * schemas are still compiled when its manifest is checked (a broken one is refused at load) and ajv keeps what it
 * compiled by schema object; the host's are compiled by a test (route-schemas.test.ts).
 */
export type BodyValidator = (body: unknown) => void;

export function compileBodyValidator(schema: JsonSchema): BodyValidator {
  let validate: ValidateFunction | undefined;
  return (body) => {
    validate ??= ajv().body.compile(schema);
    // A request without a body is checked as JSON `null`: ajv needs a JSON value, and `null` fails an object schema.
    if (!validate(body === undefined ? null : body))
      throw validationError(issuesOf(validate.errors ?? [], 'body', body));
  };
}

/**
 * Turns the raw query of a request into the values the route declares, converted to their types with defaults
 * filled; throws the 422 list otherwise. The result is a fresh object without a prototype holding only the
 * declared names, so a parameter called `__proto__` or `constructor` is just ignored.
 */
export type QueryValidator = (raw: Readonly<Record<string, unknown>>) => Record<string, QueryValue>;

export function compileQueryValidator(schema: QuerySchema): QueryValidator {
  let validate: ValidateFunction | undefined; // at the first request, as for bodies
  const names = Object.keys(schema.properties);
  return (raw) => {
    validate ??= ajv().query.compile(schema);
    const values = Object.create(null) as Record<string, unknown>;
    for (const name of names) if (Object.hasOwn(raw, name)) values[name] = raw[name];
    if (!validate(values)) throw validationError(issuesOf(validate.errors ?? [], 'query', raw));
    return Object.freeze(values) as Record<string, QueryValue>;
  };
}

/**
 * Why a route's schemas cannot be used (a plugin manifest is refused at load for it), or null when they compile.
 * `compile` false checks only the query's shape, leaving the compiling to the route's first request.
 */
export function routeSchemaProblem(
  route: { requestSchema?: JsonSchema; query?: QuerySchema },
  compile = true,
): string | null {
  try {
    if (compile && route.requestSchema !== undefined) ajv().body.compile(route.requestSchema);
  } catch (err) {
    return `requestSchema no es un JSON Schema válido: ${(err as Error).message}`;
  }
  const query = route.query;
  if (query === undefined) return null;
  if (
    typeof query !== 'object' ||
    query === null ||
    query.type !== 'object' ||
    typeof query.properties !== 'object' ||
    query.properties === null
  ) {
    return 'query debe ser un JSON Schema { type: "object", properties: {...} }.';
  }
  if (!compile) return null;
  try {
    ajv().query.compile(query);
  } catch (err) {
    return `query no es un JSON Schema válido: ${(err as Error).message}`;
  }
  return null;
}

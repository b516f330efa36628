import { validationError, type ValidationIssue } from '@cerebro/sdk';

export type FieldType = 'string' | 'boolean' | 'integer' | 'integer?' | 'string[]' | 'date?' | 'string?';

const FIELD_CHECKS: Record<FieldType, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string' && v.length > 0,
  'string?': (v) => v === null || (typeof v === 'string' && v.length > 0),
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isSafeInteger(v),
  'integer?': (v) => v === null || Number.isSafeInteger(v),
  'string[]': (v) => Array.isArray(v) && v.every((item) => typeof item === 'string'),
  // The date itself is checked by the admin service (strict ISO 8601), which the CLI shares.
  'date?': (v) => v === null || typeof v === 'string',
};

const TYPE_TEXT: Record<FieldType, string> = {
  string: 'un texto no vacío',
  'string?': 'un texto no vacío o null',
  boolean: 'true o false',
  integer: 'un número entero',
  'integer?': 'un número entero o null',
  'string[]': 'una lista de textos',
  'date?': 'una fecha ISO 8601 o null',
};

/** A body read by `readAdminBody`: only declared fields, as own properties of a prototype-less object. */
export type AdminBody = Record<string, any>;

/**
 * Reads the JSON object body of an admin route: declared fields of the right JSON type, `required` present,
 * anything else a 422 naming the field. Field names are looked up in the own keys of the body and in a map
 * without a prototype, so `{"__proto__": …}` or `{"toString": 1}` are unknown fields like any other.
 */
export function readAdminBody(
  body: unknown,
  fields: Partial<Record<string, FieldType>>,
  required: string[] = [],
): AdminBody {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw validationError([{ loc: ['body'], msg: 'Se esperaba un objeto JSON.', type: 'dict_type' }]);
  const declared = new Map(Object.entries(fields) as [string, FieldType][]);
  const result: AdminBody = Object.create(null);
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(body)) {
    const type = declared.get(name);
    const value = (body as Record<string, unknown>)[name];
    if (type === undefined) issues.push({ loc: ['body', name], msg: 'Campo desconocido.', type: 'extra_forbidden' });
    else if (!FIELD_CHECKS[type](value))
      issues.push({ loc: ['body', name], msg: `Debe ser ${TYPE_TEXT[type]}.`, type: 'type_error' });
    else result[name] = value;
  }
  for (const name of required) {
    if (!Object.hasOwn(body, name)) issues.push({ loc: ['body', name], msg: 'Campo obligatorio.', type: 'missing' });
  }
  if (issues.length) throw validationError(issues);
  return result;
}

export const has = (body: AdminBody, name: string): boolean => Object.hasOwn(body, name);

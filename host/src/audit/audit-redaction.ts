/**
 * What the audit log may keep of a settings object. Secrets never reach the log, whatever a route answers: a field
 * whose name says it holds one is replaced by a marker (so the log still says it changed), and a value too large
 * to be a setting (a document's text pasted into a field) is cut.
 */
const SECRET_NAME = /(secret|secreto|token|clave|password|contrasena|contraseña|api_key|apikey|digest|cookie|csrf)/i;
/** Fields named like secrets that are known to hold none (a key's limits, whether an owner has a password). */
const NOT_SECRET = new Set(['tiene_clave', 'clave_id', 'claves', 'tokens']);
const MAX_STRING = 500;
const MAX_DEPTH = 6;
const MAX_ITEMS = 100;

export const REDACTED = '[oculto]';

/**
 * Whether a field's name says it holds a secret. A name with a slash is no field but data used as a key: a route
 * (`"POST /tokens"` in a key's calls per route), whose count is no secret.
 */
const secretName = (name: string): boolean => SECRET_NAME.test(name) && !NOT_SECRET.has(name) && !name.includes('/');

export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => withoutSecrets(item, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
      out[name] = secretName(name) ? REDACTED : withoutSecrets(field, depth + 1);
    }
    return out;
  }
  return undefined;
}

/** The JSON the log stores, or null for nothing. */
export function auditJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(withoutSecrets(value));
}

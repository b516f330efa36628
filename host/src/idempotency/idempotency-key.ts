import { createHash } from 'node:crypto';
import { validationError } from '@cerebro/sdk';

/** Longest key accepted: room for a UUID or a ULID with a prefix, not for a payload smuggled in a header. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Visible ASCII only: a key is an opaque token, and control or non-ASCII characters only invite confusion in logs. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

const invalidKey = (msg: string) => validationError([{ loc: ['header', 'Idempotency-Key'], msg, type: 'value_error' }]);

/**
 * The `Idempotency-Key` header's value, or undefined without one. The draft defines it as a Structured Field
 * string (`"8e03978e-…"`); the bare token many clients send is accepted too.
 * @throws 422 for an empty, over-long or non-ASCII key, or a header sent twice.
 */
export function readIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw invalidKey('Envía una sola cabecera Idempotency-Key.');
  const quoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
  const key = quoted ? raw.slice(1, -1) : raw.trim();
  if (key.length === 0) throw invalidKey('La Idempotency-Key no puede estar vacía.');
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    throw invalidKey(`La Idempotency-Key admite como máximo ${MAX_IDEMPOTENCY_KEY_LENGTH} caracteres.`);
  if (!VISIBLE_ASCII.test(key) || key.includes('"') || key.includes(',')) {
    throw invalidKey(
      'La Idempotency-Key solo admite caracteres ASCII visibles, sin comillas ni comas (una sola clave).',
    );
  }
  return key;
}

/** What "the same request" means for a key: the same JSON body, whatever its spacing. */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('base64url');
}

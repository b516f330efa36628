// PostgreSQL cannot store the NUL character (U+0000) in text or jsonb: a value carrying one (an id in the path, a
// field of a body) makes the statement fail with SQLSTATE 22021 or 22P05. That is the client's input, not a server
// fault: it answers 400 `bad_request` naming the character, on every route at once, instead of a 500.
import { apiError, type ApiError } from '@cerebro/sdk';

/** SQLSTATEs of a NUL in text (character_not_in_repertoire) and in jsonb (untranslatable_character). */
const NUL_REFUSED = new Set(['22021', '22P05']);

/** The 400 for a statement PostgreSQL refused because a value held U+0000 (in `err` or its `cause` chain), or null. */
export function nulTextRefusal(err: unknown): ApiError | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NUL_REFUSED.has(code))
      return apiError('bad_request', 'Un valor de la petición contiene el carácter nulo (U+0000), que no se admite.');
  }
  return null;
}

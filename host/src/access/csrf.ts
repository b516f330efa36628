import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The CSRF token of a console session, derived from the session's own secret (HMAC-SHA256), so nothing extra is
 * stored and it changes with every session. Only the owner's page can know it: it comes in the JSON of
 * `POST`/`GET /api/sesion`, which another site cannot read (no CORS), while the cookie it protects is HttpOnly.
 */
export function csrfTokenFor(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('cerebro-csrf-v1').digest('base64url');
}

/** Constant-time comparison of the `X-CSRF-Token` header with the session's token. */
export function csrfMatches(header: string | string[] | undefined, token: string): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(token);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Methods that change state and so need the token when the cookie authenticates them. */
export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

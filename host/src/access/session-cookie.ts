import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { ProxyTrust } from '../config/proxy-trust.js';

/**
 * The console session cookie: the `crs_` credential itself, never readable by page scripts. Over HTTPS it is named
 * with the `__Host-` prefix, which browsers only accept when Secure, for Path=/ and without a Domain: a page on a
 * sibling subdomain cannot plant one (cookie tossing). Each kind of request reads only its own name.
 */
export const SESSION_COOKIE = 'cerebro_sesion';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const nameFor = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** The cookie's value, if the request carries one (the first, should a client send several). */
export function sessionCookieOf(req: IncomingMessage, secure: boolean): string | undefined {
  const header = req.headers.cookie;
  if (!header || !header.includes(SESSION_COOKIE)) return undefined;
  return parseCookie(header)[nameFor(secure)];
}

/**
 * Whether the browser reached us over HTTPS: a TLS socket, or a proxy we trust (`CEREBRO_TRUST_PROXY` names the
 * socket's peer) that says so in `X-Forwarded-Proto`. The nearest proxy writes the last entry of that header.
 */
export function requestIsSecure(req: IncomingMessage, trustProxy: ProxyTrust | null): boolean {
  if (req.socket instanceof TLSSocket && req.socket.encrypted) return true;
  if (!trustProxy || !trustProxy(req.socket.remoteAddress ?? '', 0)) return false;
  const header = req.headers['x-forwarded-proto'];
  const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').at(-1)?.trim().toLowerCase();
  return value === 'https';
}

/**
 * `Set-Cookie` of a new session: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it),
 * Path=/ (the API and the console), Secure over HTTPS. `maxAgeMs` is the session's absolute life; the idle expiry
 * is enforced by the server.
 */
export function sessionCookie(token: string, maxAgeMs: number, secure: boolean): string {
  return stringifySetCookie({
    name: nameFor(secure),
    value: token,
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure,
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** `Set-Cookie` that removes the session cookie from the browser. */
export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie({
    name: nameFor(secure),
    value: '',
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure,
    maxAge: 0,
  });
}

import type { IncomingMessage } from 'node:http';
import { parseCredential, secretMatches } from '../access/credentials.js';
import type { HostConfig } from '../config/host-config.js';
import type { ConsoleSessions, IssuedSession, SessionOrigin } from './studio-services.js';
import { csrfTokenFor } from '../access/csrf.js';
import { requestIsSecure, sessionCookie, sessionCookieOf } from '../access/session-cookie.js';

export interface StartedSession extends IssuedSession {
  csrf: string;
  /** The `Set-Cookie` header value carrying the new session. */
  cookie: string;
}

/**
 * Opens a new session for a browser that just proved who it is (password or one-time link). Session fixation:
 * whatever session cookie the browser sent before is never reused; if it was a live session it is ended, so an id
 * planted by someone else before sign-in is worthless after it.
 */
export async function startBrowserSession(
  req: IncomingMessage,
  ownerId: string,
  origin: SessionOrigin,
  ip: string,
  sessions: ConsoleSessions,
  config: HostConfig,
  /** The sessions a cookie of that kind belongs to (an owner's `crs_` or a member's `crm_`). */
  previousOf: (kind: 'console' | 'member') => ConsoleSessions = () => sessions,
): Promise<StartedSession> {
  const secure = requestIsSecure(req, config.trustProxy);
  const previous = sessionCookieOf(req, secure);
  const parsed = previous === undefined ? null : parseCredential(previous);
  if (parsed?.kind === 'console' || parsed?.kind === 'member') {
    const store = previousOf(parsed.kind);
    const row = await store.find(parsed.id);
    if (row && secretMatches(parsed.secret, row.secret_digest)) await store.end(row.id);
  }
  const agent = req.headers['user-agent'];
  const issued = await sessions.issue(ownerId, origin, {
    userAgent: typeof agent === 'string' ? agent : undefined,
    ip,
  });
  const secret = parseCredential(issued.token)!.secret;
  return {
    ...issued,
    csrf: csrfTokenFor(secret),
    cookie: sessionCookie(issued.token, config.sessionMaxMs, secure),
  };
}

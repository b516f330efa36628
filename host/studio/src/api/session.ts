import { api, setCsrfToken } from './client.js';
import type { SessionInfo } from './types.js';

/** The current session, or null when the browser has none (401). */
export async function currentSession(): Promise<SessionInfo | null> {
  try {
    const session = await api<SessionInfo>('GET', '/sesion', { expectUnauthorized: true });
    setCsrfToken(session.csrf);
    return session;
  } catch (err) {
    if ((err as { status?: number }).status === 401) return null;
    throw err;
  }
}

export async function signIn(email: string, clave: string): Promise<SessionInfo> {
  const session = await api<SessionInfo>('POST', '/sesion', { json: { email, clave }, expectUnauthorized: true });
  setCsrfToken(session.csrf);
  return session;
}

/** Spends a one-time sign-in link's token and opens a session (401 when it is not valid, used or expired). */
export async function signInWithLink(token: string): Promise<SessionInfo> {
  const session = await api<SessionInfo>('POST', '/sesion/enlace', { json: { token }, expectUnauthorized: true });
  setCsrfToken(session.csrf);
  return session;
}

export async function signOut(): Promise<void> {
  try {
    await api('DELETE', '/sesion', { expectUnauthorized: true });
  } finally {
    setCsrfToken(null);
  }
}

/** Accepts an invitation (a new member's name and password, or an existing member's password) and opens a session. */
export async function acceptInvitation(
  token: string,
  answer: { nombre?: string; clave: string },
): Promise<SessionInfo> {
  const session = await api<SessionInfo>('POST', '/invitaciones/aceptar', { json: { token, ...answer } });
  setCsrfToken(session.csrf);
  return session;
}

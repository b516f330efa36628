// Members through the real host: a Studio session's requests, and a member made the way people are (invited by an
// owner, accepting the link), for the member tests.
import assert from 'node:assert/strict';
import type { TestHost } from '@cerebro/sdk/testing';
import { browserRequest, cookieFrom, signIn, withPassword, type BrowserResponse, type SignedIn } from './studio.js';

export const MEMBER_PASSWORD = 'la clave de la miembro';

/** A Studio session's request: its cookie, and its CSRF token on writes. */
export const as =
  (url: string, session: SignedIn) =>
  (method: string, path: string, json?: unknown): Promise<BrowserResponse> =>
    browserRequest(url, method, `/api${path}`, {
      cookie: session.cookie,
      ...(method === 'GET' ? {} : { csrf: session.csrf }),
      ...(json === undefined ? {} : { json }),
    });

/** The token of an invitation link (`…/studio/invitacion?token=<token>`). */
export const tokenOf = (link: string): string => new URL(link).searchParams.get('token')!;

/** Invites `email` with `role` as `owner` and accepts the invitation as a new member: the member's session. */
export async function member(
  h: TestHost,
  owner: SignedIn,
  email: string,
  role: string,
  space = h.spaceId,
): Promise<SignedIn> {
  const invited = await as(h.url, owner)('POST', `/companies/${space}/miembros`, { email, rol: role });
  assert.equal(invited.status, 201, invited.text);
  const accepted = await browserRequest(h.url, 'POST', '/api/invitaciones/aceptar', {
    json: { token: tokenOf(invited.body.enlace), nombre: `Persona ${role}`, clave: MEMBER_PASSWORD },
  });
  assert.equal(accepted.status, 201, accepted.text);
  return { cookie: cookieFrom(accepted.setCookies), csrf: accepted.body.csrf, setCookie: '', body: accepted.body };
}

/** The owner of the test host, signed in to Studio with a password. */
export async function ownerSession(h: TestHost): Promise<SignedIn> {
  await withPassword(h);
  return signIn(h.url);
}

import assert from 'node:assert/strict';
import type { TestHost } from '@cerebro/sdk/testing';

/** The operator actions Studio added to the admin service (the TestAdmin interface of the sdk predates them). */
export interface StudioAdmin {
  setOwnerEmail(ownerId: string, email: string): Promise<{ id: string; email: string }>;
  setOwnerPassword(ownerId: string, password?: string): Promise<{ clave?: string; sesiones_cerradas: number }>;
  issueSignInLink(ownerId: string, origin: string): Promise<{ enlace: string; expira: string }>;
}

export const studioAdmin = (h: TestHost): StudioAdmin => h.admin as unknown as StudioAdmin;

export const OWNER_EMAIL = 'duena@example.com';
export const OWNER_PASSWORD = 'una clave larga y segura';

/** Gives the test host's owner an email and a password to sign in with. */
export async function withPassword(h: TestHost, email = OWNER_EMAIL, password = OWNER_PASSWORD): Promise<void> {
  await studioAdmin(h).setOwnerEmail(h.ownerId, email);
  await studioAdmin(h).setOwnerPassword(h.ownerId, password);
}

export interface BrowserResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  /** `Set-Cookie` lines of the answer. */
  setCookies: string[];
}

/** A request as a browser page of Studio would make it: the cookie, and (if given) the CSRF header; no Bearer. */
export async function browserRequest(
  url: string,
  method: string,
  path: string,
  options: { cookie?: string; csrf?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<BrowserResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: isJson && text ? JSON.parse(text) : text,
    setCookies: res.headers.getSetCookie(),
  };
}

/** `cerebro_sesion=<value>` (or its `__Host-` form over TLS) out of a `Set-Cookie` line, ready to send back as a `Cookie` header. */
export function cookieFrom(setCookies: string[]): string {
  const line = setCookies.find((c) => /^(__Host-)?cerebro_sesion=/.test(c));
  assert.ok(line, `no session cookie in ${JSON.stringify(setCookies)}`);
  return line.split(';')[0]!;
}

export interface SignedIn {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: any;
}

/** Signs in through `POST /api/sesion` and returns the cookie to send back and the CSRF token. */
export async function signIn(
  url: string,
  email = OWNER_EMAIL,
  password = OWNER_PASSWORD,
  headers: Record<string, string> = {},
): Promise<SignedIn> {
  const res = await browserRequest(url, 'POST', '/api/sesion', { json: { email, clave: password }, headers });
  assert.equal(res.status, 201, res.text);
  const setCookie = res.setCookies.find((c) => /^(__Host-)?cerebro_sesion=/.test(c))!;
  return { cookie: cookieFrom(res.setCookies), csrf: res.body.csrf, setCookie, body: res.body };
}

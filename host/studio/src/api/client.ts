import { ApiError } from './errors.js';

/** Every route the console calls lives under /api, on the same origin that served the console. */
export const API_BASE = '/api';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let csrfToken: string | null = null;
let onSignedOut: (() => void) | null = null;

/** The CSRF token of the current session (from POST/GET /api/sesion); sent on every state-changing call. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the API answers 401: the session expired or was revoked elsewhere. */
export function onSessionLost(handler: () => void): void {
  onSignedOut = handler;
}

/** Headers every state-changing call carries; exported for the upload (XMLHttpRequest) and stream paths. */
export function csrfHeaders(method: string): Record<string, string> {
  return STATE_CHANGING.has(method.toUpperCase()) && csrfToken ? { 'X-CSRF-Token': csrfToken } : {};
}

export interface RequestOptions {
  json?: unknown;
  body?: BodyInit;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** A 401 on this call is an expected answer (signing in), not a lost session. */
  expectUnauthorized?: boolean;
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

/** Encodes one path segment (space ids, file names, ids). */
export const seg = (value: string): string => encodeURIComponent(value);

/** Calls the API through the session cookie; resolves with the parsed JSON body (undefined for 204). */
export async function api<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...csrfHeaders(method) };
  let body = options.body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, null, null);
  }
  return readResponse<T>(response, options.expectUnauthorized === true);
}

export async function readResponse<T>(response: Response, expectUnauthorized = false): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    if (response.status === 401 && !expectUnauthorized) onSignedOut?.();
    const record = (parsed && typeof parsed === 'object' ? parsed : {}) as { detail?: unknown; codigo?: unknown };
    const codigo =
      typeof record.codigo === 'string'
        ? record.codigo
        : typeof (record.detail as { codigo?: unknown })?.codigo === 'string'
          ? (record.detail as { codigo: string }).codigo
          : null;
    throw new ApiError(response.status, record.detail, codigo);
  }
  return parsed as T;
}

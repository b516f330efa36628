import type { ServerResponse } from 'node:http';
import type { Logger as PinoLogger } from 'pino';
import type { Request } from 'polka';
import { requestIdFor } from '../http/request-context.js';

/**
 * Headers of every answer under `/studio/`. The CSP allows only the console's own files (no inline script, no
 * other origin); `frame-src 'self'` lets it preview a landing in a sandboxed frame; nobody may frame the console.
 */
export const STUDIO_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

/**
 * Starts an answer outside the API pipeline: request id, the Studio headers, and the access line written when the
 * exchange ends ('close' also fires when the client goes away mid-answer). The path is logged without its query
 * string, where a sign-in link carries its token.
 */
export function beginStudioAnswer(req: Request, res: ServerResponse, log: PinoLogger): void {
  const id = requestIdFor(req.headers['x-request-id']);
  res.setHeader('X-Request-Id', id);
  for (const [name, value] of Object.entries(STUDIO_HEADERS)) res.setHeader(name, value);
  res.once('close', () =>
    log.info({ method: req.method, path: req.path.slice(0, 200), reqId: id, status: res.statusCode }, 'petición'),
  );
}

export function plainAnswer(
  res: ServerResponse,
  status: number,
  text: string,
  type = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
  });
  res.end(text);
}

export function redirectAnswer(
  res: ServerResponse,
  status: 301 | 303,
  location: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    Location: location,
    'Content-Length': 0,
    ...(status === 303 ? { 'Cache-Control': 'no-store' } : {}),
    ...headers,
  });
  res.end();
}

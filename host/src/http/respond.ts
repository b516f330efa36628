import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { ApiError, ERROR_CATALOGUE, Reply, isApiError } from '@cerebro/sdk';
import type { Logger as PinoLogger } from 'pino';
import { openAiError } from './openai-errors.js';
import { FAILURE_WORDS, storageApiError, storageFailureOf } from '../storage/storage-failure.js';
import { nulTextRefusal } from '../storage/nul-text-refusal.js';

/**
 * Sends `value` as JSON. `headers` are this response's headers so far and receive the content headers: adding
 * to the object instead of spreading it into a new one matters here (a spread with extra keys measured ~0.9 µs,
 * more than the rest of a small answer). Callers pass an object owned by the response, never a shared one.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string | number> = {},
): void {
  if (res.headersSent) return;
  const body = JSON.stringify(value);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * Declares the length of a body known whole: headers written before `end` without it make Node frame the answer
 * in chunks (`Transfer-Encoding: chunked`: more bytes, and the chunk sizes as extra pieces of the socket write).
 * A length the handler set itself is kept.
 */
function withLength(headers: Record<string, string | number>, body: string | Buffer): void {
  if (headers['content-length'] !== undefined || headers['Content-Length'] !== undefined) return;
  headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}

/**
 * Adds a reply's or an error's own headers to this response's, each replacing one of the same name written in
 * another case: names are case-insensitive, but Node writes `X-Content-Type-Options` and `x-content-type-options`
 * as two header lines (a document's download carried both).
 */
function addHeaders(
  headers: Record<string, string | number>,
  extra: Record<string, string>,
): Record<string, string | number> {
  for (const name of Object.keys(extra)) {
    const lower = name.toLowerCase();
    let kept = false;
    for (const existing of Object.keys(headers)) {
      if (existing.toLowerCase() !== lower) continue;
      // A route answering a secret said no-store (pipeline step 1): no reply of its own makes the answer cacheable.
      if (lower === 'cache-control' && headers[existing] === 'no-store') kept = true;
      else if (existing !== name) delete headers[existing];
    }
    if (!kept) headers[name] = extra[name]!;
  }
  return headers;
}

/**
 * Writes what a handler returned: a `Reply`, nothing (204), or any value as 200 JSON. `headers` belongs to this
 * response (as for `sendJson`) and receives the reply's own headers: no spread into new objects on this path.
 */
export function sendResult(res: ServerResponse, result: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded) return;
  if (result instanceof Reply) {
    const merged = result.headers ? addHeaders(headers, result.headers) : headers;
    if (result.body instanceof Readable) {
      res.writeHead(result.status, merged);
      result.body.on('error', () => res.destroy()).pipe(res);
      return;
    }
    if (result.json) merged['content-type'] = 'application/json; charset=utf-8';
    if (result.body !== undefined && result.status !== 204 && result.status !== 304)
      withLength(merged, result.body as string | Buffer);
    res.writeHead(result.status, merged);
    res.end(result.body);
    return;
  }
  if (result === undefined) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  sendJson(res, 200, result, headers);
}

/**
 * Maps any error to `{"detail": ..., "codigo": ...}`: catalogue errors as they are, a full disk (507) or a busy
 * database (503, `Retry-After`) as theirs, everything else as a 500 (`codigo: "internal"`) that hides internals.
 */
export function sendError(
  res: ServerResponse,
  err: unknown,
  log: PinoLogger,
  requestId: string,
  headers: Record<string, string> = {},
  format?: 'openai',
): number {
  const body = (status: number, detail: unknown, codigo: string) =>
    format === 'openai' ? { detail, codigo, error: openAiError(status, detail, codigo) } : { detail, codigo };
  const storage = isApiError(err) ? null : storageFailureOf(err);
  if (storage) {
    if (storage.kind === 'full')
      log.error({ err, errno: storage.errno }, `sin espacio en disco (${storage.errno}): la petición no se guardó`);
    else log.warn({ err, errno: storage.errno }, `${FAILURE_WORDS[storage.kind]} (${storage.errno})`);
    err = storageApiError(storage);
  }
  if (!isApiError(err)) err = nulTextRefusal(err) ?? err;
  if (isApiError(err)) {
    const e = err as ApiError;
    sendJson(
      res,
      e.status,
      body(e.status, e.detail, e.code),
      e.headers ? addHeaders({ ...headers }, e.headers) : headers,
    );
    return e.status;
  }
  log.error({ err }, 'error no controlado');
  sendJson(res, 500, body(500, `${ERROR_CATALOGUE.internal.detail} Referencia: ${requestId}.`, 'internal'), headers);
  return 500;
}

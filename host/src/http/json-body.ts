import { json } from '@polka/parse';
import type { ServerResponse } from 'node:http';
import type { Request } from 'polka';
import { apiError } from '@cerebro/sdk';

const isJsonType = (type: string | undefined): boolean =>
  !!type && /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type.trim());

/**
 * Reads a JSON body with @polka/parse, adding what it lacks: an early 413 from Content-Length, a 415 for a body
 * of another type, a 400 (not 422) for malformed JSON, and a guard because the parser calls `next` once per
 * chunk after the limit is passed. Resolves `undefined` when there is no body.
 */
export function readJsonBody(req: Request, res: ServerResponse, limit: number): Promise<unknown> {
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return Promise.resolve(undefined);
  if (!isJsonType(req.headers['content-type'])) {
    return Promise.reject(apiError('unsupported_media_type', 'El cuerpo debe enviarse como application/json.'));
  }
  if (length !== undefined && Number(length) > limit) {
    return Promise.reject(apiError('body_too_large', `El cuerpo supera el máximo de ${limit} bytes.`));
  }
  // The type was checked above, case-insensitively. @polka/parse matches its own `type` case-sensitively and an
  // empty one falls back to 'application/json', so `APPLICATION/JSON` was skipped and the handler saw `{}`;
  // '/' is in every media type.
  const parse = json({ limit, type: '/' });
  return new Promise((resolve, reject) => {
    let settled = false;
    parse(req, res, (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (!err) return resolve(req.body);
      const status = (err as { status?: number }).status;
      if (status === 413) {
        req.pause();
        return reject(apiError('body_too_large', `El cuerpo supera el máximo de ${limit} bytes.`));
      }
      if (status === 422)
        return reject(
          apiError(
            'malformed_json',
            `El cuerpo de la petición no es JSON válido: ${(err as { details?: string }).details ?? ''}`.trim(),
          ),
        );
      reject(apiError('bad_request', 'No se pudo leer el cuerpo de la petición.'));
    });
  });
}

import type { Request } from 'polka';
import { apiError } from '@cerebro/sdk';

const isFormType = (type: string | undefined): boolean =>
  !!type && /^application\/x-www-form-urlencoded\s*(;|$)/i.test(type.trim());

/**
 * Reads an HTML form's `application/x-www-form-urlencoded` body (a page without script posting to a public route)
 * into an object of strings, with the limits of a JSON body: 415 for another type, 413 past `limit` bytes (from
 * Content-Length at once, else while reading), 400 for a field sent twice or text that is not UTF-8. Resolves
 * `undefined` when there is no body. Fields are collected without a prototype, so no name reaches `Object.prototype`.
 */
export function readFormBody(req: Request, limit: number): Promise<Record<string, string> | undefined> {
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return Promise.resolve(undefined);
  if (!isFormType(req.headers['content-type']))
    return Promise.reject(
      apiError('unsupported_media_type', 'El cuerpo debe enviarse como application/x-www-form-urlencoded.'),
    );
  if (length !== undefined && Number(length) > limit)
    return Promise.reject(apiError('body_too_large', `El cuerpo supera el máximo de ${limit} bytes.`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        settle(() => reject(apiError('body_too_large', `El cuerpo supera el máximo de ${limit} bytes.`)));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle(() => parse(Buffer.concat(chunks), resolve, reject));
    const onError = () => settle(() => reject(apiError('bad_request', 'No se pudo leer el cuerpo de la petición.')));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function parse(bytes: Buffer, resolve: (fields: Record<string, string>) => void, reject: (err: unknown) => void): void {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return reject(apiError('bad_request', 'El formulario no está codificado en UTF-8.'));
  }
  const fields = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name))
      return reject(apiError('bad_request', `El campo «${name.slice(0, 40)}» llegó más de una vez.`));
    fields[name] = value;
  }
  // A plain copy for the schema validator; spreading defines `__proto__` as an own field (refused by a closed schema).
  resolve({ ...fields });
}

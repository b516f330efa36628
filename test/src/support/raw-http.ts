import { request } from 'node:http';

/** One request sent byte for byte: the path is not normalised (no `..` folding) and headers may repeat. */
export interface RawRequest {
  method: string;
  /** Path and query exactly as sent, e.g. `/api/rag/x/documents/..%2F..?desde=1e20`. */
  path: string;
  /** A header given as a list is sent once per value (duplicate headers). */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, or `undefined` when the body is not JSON. */
  json: unknown;
}

/**
 * Sends a request with node:http rather than fetch: fetch resolves dot segments and refuses some header values,
 * and the point of the harnesses is to send exactly what a hostile client would.
 */
export function rawRequest(origin: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(origin);
  const body =
    req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const headers: Record<string, string | string[]> = { ...req.headers };
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length'))
    headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers,
        agent: false,
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          if ((res.headers['content-type'] ?? '').includes('json') && text) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

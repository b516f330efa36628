// The few S3 requests the originals store makes (PUT, GET, DELETE), signed with Signature V4 by
// `aws4` and sent with node:http(s): a body streams from a file with its length known, never whole in memory.
// Loaded only when CEREBRO_ARCHIVOS names an S3 store (see s3-originals-store.ts).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import type { S3Credentials, S3Location } from '../../../config/originals-setting.js';
import { ORIGINALS_UNAVAILABLE } from '../../storage-failure.js';

type Aws4 = typeof import('aws4');

/**
 * An S3 answer other than the one expected, with S3's status and error code only (its body may quote the request).
 * A failure on the store's side (5xx) carries ORIGINALS_UNAVAILABLE: a request it hits answers 503, not 500.
 */
export class S3RequestError extends Error {
  readonly code: string | undefined;

  constructor(
    readonly status: number,
    readonly s3Code: string,
  ) {
    super(`el almacén S3 respondió ${status}${s3Code ? ` (${s3Code})` : ''}`);
    this.code = status >= 500 ? ORIGINALS_UNAVAILABLE : undefined;
  }
}

/** The store could not be reached (refused, reset, timed out): ORIGINALS_UNAVAILABLE, the network error as cause. */
const unreachable = (cause: unknown): Error =>
  Object.assign(new Error('el almacén S3 no responde', { cause }), { code: ORIGINALS_UNAVAILABLE });

/** How long a request may wait for the store's first answer or between two chunks. */
const SOCKET_TIMEOUT_MS = 30_000;

const encodeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

export class S3Client {
  private readonly endpoint: URL;

  constructor(
    private readonly aws4: Aws4,
    private readonly location: S3Location,
    private readonly credentials: S3Credentials,
  ) {
    this.endpoint = new URL(location.endpoint);
  }

  /** Stores `body` (`bytes` long) under `key`; the payload is not hashed (UNSIGNED-PAYLOAD): it streams as it is read. */
  async put(key: string, body: Readable | Uint8Array, bytes: number): Promise<void> {
    const res = await this.send('PUT', key, '', { 'content-length': String(bytes) }, body);
    await this.expect(res, [200]);
  }

  /** The object's bytes as a stream with their length, or null when there is no such object. */
  async get(key: string): Promise<{ bytes: number; stream: IncomingMessage } | null> {
    const res = await this.send('GET', key);
    if (res.statusCode === 404) {
      res.resume();
      return null;
    }
    if (res.statusCode !== 200) await this.expect(res, [200]);
    return { bytes: Number(res.headers['content-length'] ?? 0), stream: res };
  }

  /** S3's status for the bucket itself (HEAD): 200 when it exists and the keys may use it, 403 or 404 otherwise. */
  async bucketStatus(): Promise<number> {
    const res = await this.send('HEAD', '');
    res.resume();
    if ((res.statusCode ?? 0) >= 500) throw new S3RequestError(res.statusCode ?? 0, '');
    return res.statusCode ?? 0;
  }

  /** Deletes the object (an absent one is no error: S3 answers 204 either way). */
  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    await this.expect(res, [200, 204, 404]);
  }

  private async expect(res: IncomingMessage, statuses: number[]): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    if (statuses.includes(res.statusCode ?? 0)) return;
    // Only S3's error code is kept: the body may quote the request.
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
    throw new S3RequestError(res.statusCode ?? 0, code);
  }

  private send(
    method: string,
    key: string,
    query = '',
    headers: Record<string, string> = {},
    body?: Readable | Uint8Array,
  ): Promise<IncomingMessage> {
    const { bucket, pathStyle, region } = this.location;
    const host = pathStyle ? this.endpoint.host : `${bucket}.${this.endpoint.host}`;
    const path = `${pathStyle ? `/${encodeURIComponent(bucket)}` : ''}/${encodeKey(key)}${query ? `?${query}` : ''}`;
    const signed = this.aws4.sign(
      {
        host,
        path,
        method,
        service: 's3',
        region,
        headers: { ...headers, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
      },
      this.credentials,
    );
    const request = this.endpoint.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        {
          protocol: this.endpoint.protocol,
          hostname: pathStyle ? this.endpoint.hostname : `${bucket}.${this.endpoint.hostname}`,
          port: this.endpoint.port || undefined,
          method,
          path,
          headers: signed.headers as Record<string, string>,
        },
        resolve,
      );
      req.once('error', (err) => {
        if (body !== undefined && !(body instanceof Uint8Array)) body.destroy(); // the file is closed, not left open
        reject(unreachable(err));
      });
      req.setTimeout(SOCKET_TIMEOUT_MS, () => req.destroy(new Error('sin respuesta')));
      if (body === undefined) req.end();
      else if (body instanceof Uint8Array) req.end(body);
      else {
        body.once('error', (err) => req.destroy(err));
        body.pipe(req);
      }
    });
  }
}

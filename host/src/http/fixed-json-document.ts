import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { Reply } from '@cerebro/sdk';
import { chooseContentCoding, type ContentCoding } from './content-encoding.js';

interface Representation {
  body: Buffer;
  etag: string;
}

/**
 * A JSON document that never changes while the process runs (the OpenAPI document): serialized, hashed and
 * compressed once, then answered with its ETag (`304` to a matching `If-None-Match`) in the coding the client
 * prefers. Each coding has its own strong ETag, as RFC 9110 asks of different representations; any of them
 * revalidates, since they all carry the same document.
 */
export class FixedJsonDocument {
  private readonly representations: Record<ContentCoding, Representation>;

  constructor(document: unknown) {
    const json = Buffer.from(JSON.stringify(document));
    const hash = createHash('sha256').update(json).digest('base64url').slice(0, 27);
    this.representations = {
      identity: { body: json, etag: `"${hash}"` },
      gzip: { body: gzipSync(json, { level: 9 }), etag: `"${hash}-gzip"` },
      br: {
        body: brotliCompressSync(json, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: json.length },
        }),
        etag: `"${hash}-br"`,
      },
    };
  }

  /** The answer to a GET with these request headers. */
  reply(headers: { 'accept-encoding'?: string; 'if-none-match'?: string }): Reply {
    const coding = chooseContentCoding(headers['accept-encoding']);
    const { body, etag } = this.representations[coding];
    const common = { etag, vary: 'Accept-Encoding', 'cache-control': 'no-cache' };
    if (this.matches(headers['if-none-match'])) return Reply.empty(304, common);
    return Reply.send(200, body, 'application/json; charset=utf-8', {
      ...common,
      'content-length': String(body.length),
      ...(coding === 'identity' ? {} : { 'content-encoding': coding }),
    });
  }

  /** Weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored, `*` matches. */
  private matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    const known = new Set(Object.values(this.representations).map((r) => r.etag));
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || known.has(tag));
  }
}

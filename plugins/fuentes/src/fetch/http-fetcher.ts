import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { AddressPolicy } from '@cerebro/sdk';
import { AddressRefused, guardedLookup, systemResolver, type Resolver } from '@cerebro/sdk';
import { ExchangeSignal } from './exchange-signal.js';
import { FetchFailure } from './fetch-failure.js';

export interface FetchLimits {
  /** Largest body accepted, counted after decompression. */
  maxBytes: number;
  /** Time for the whole exchange (all redirects and the body). */
  timeoutMs: number;
  maxRedirects: number;
  /** Connections kept per host (default 4): as many as requests one host may have at once. */
  socketsPerHost?: number;
}

export interface FetchRequest {
  url: string;
  signal?: AbortSignal;
  /** Validators of the copy we hold, for a conditional request (answer 304 → `notModified`). */
  etag?: string | null;
  lastModified?: string | null;
  /** Accept header (default: HTML first, then anything). */
  accept?: string;
}

export interface FetchedResponse {
  /** The address that answered, after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  notModified: boolean;
  /** Media type without parameters, lower case ('' when absent). */
  mediaType: string;
  redirects: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * HTTP(S) GET through the address guard: every hop (the first request and each redirect) is checked — scheme,
 * IP literals directly, host names through a `lookup` that returns only checked addresses, which is what the
 * socket connects to. Bodies are read up to `maxBytes` (after decompression) and the whole exchange is bounded
 * by `timeoutMs`.
 */
export class GuardedFetcher {
  private readonly lookup;
  private readonly agents;

  constructor(
    private readonly policy: AddressPolicy,
    private readonly limits: FetchLimits,
    private readonly userAgent: string,
    resolver: Resolver = systemResolver,
  ) {
    this.lookup = guardedLookup(policy, resolver);
    // Kept-alive sockets were opened through the guarded lookup: reusing one reaches the address checked then.
    const maxSockets = limits.socketsPerHost ?? 4;
    this.agents = {
      http: new HttpAgent({ keepAlive: true, maxSockets }),
      https: new HttpsAgent({ keepAlive: true, maxSockets }),
    };
  }

  /** Closes the kept-alive sockets. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  async fetch(req: FetchRequest): Promise<FetchedResponse> {
    const exchange = new ExchangeSignal(req.signal, this.limits.timeoutMs);
    try {
      return await this.follow(req, exchange);
    } finally {
      exchange.end();
    }
  }

  /** The request and the redirects it leads to, each hop checked. */
  private async follow(req: FetchRequest, exchange: ExchangeSignal): Promise<FetchedResponse> {
    let current = req.url;
    for (let redirects = 0; ; redirects++) {
      let response;
      try {
        response = await this.once(current, req, exchange);
      } catch (err) {
        // The run's error names the page asked for; the message names the redirect target that failed.
        if (redirects === 0 || !(err instanceof FetchFailure)) throw err;
        throw new FetchFailure(err.code, `Redirección a ${current}: ${err.message}`, req.url, err.httpStatus);
      }
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location) return { ...response, url: current, redirects };
      if (redirects >= this.limits.maxRedirects) {
        throw new FetchFailure(
          'demasiadas_redirecciones',
          `Más de ${this.limits.maxRedirects} redirecciones.`,
          req.url,
          response.status,
        );
      }
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new FetchFailure(
          'red',
          `Redirección a una dirección no válida: ${location.slice(0, 200)}`,
          current,
          response.status,
        );
      }
      next.hash = '';
      current = next.href;
    }
  }

  /** The address guard's verdict on a URL without connecting (schemes and IP literals; names are checked on connect). */
  check(raw: string): FetchFailure | null {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return new FetchFailure('red', 'La dirección no es una URL válida.', raw);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return new FetchFailure('esquema_no_admitido', `Solo se admiten http y https (no ${url.protocol}).`, raw);
    if (url.username || url.password)
      return new FetchFailure('esquema_no_admitido', 'La dirección no puede llevar usuario ni contraseña.', raw);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const refusal = this.policy.refusal(host);
      if (refusal) return new FetchFailure('direccion_bloqueada', refusal, raw);
    }
    return null;
  }

  private async once(
    raw: string,
    req: FetchRequest,
    exchange: ExchangeSignal,
  ): Promise<Omit<FetchedResponse, 'url' | 'redirects'>> {
    const { signal } = exchange;
    const refused = this.check(raw);
    if (refused) throw refused;
    const url = new URL(raw);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: req.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
      'accept-encoding': 'gzip, deflate, br',
    };
    if (req.etag) headers['if-none-match'] = req.etag;
    if (req.lastModified) headers['if-modified-since'] = req.lastModified;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const ask = () =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const r = send(
          {
            protocol: url.protocol,
            hostname: host,
            port: url.port || undefined,
            path: `${url.pathname}${url.search}`,
            method: 'GET',
            headers,
            lookup: this.lookup,
            signal,
            agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
            ...(isIP(host) ? {} : { servername: host }),
          },
          resolve,
        );
        r.on('error', (err: NodeJS.ErrnoException) => reject(Object.assign(err, { reusedSocket: r.reusedSocket })));
        r.end();
      });
    let res: IncomingMessage;
    try {
      try {
        res = await ask();
      } catch (err) {
        // A kept-alive socket the site closed just as we reused it (its idle timeout): asked again on a new socket,
        // as Node's documentation advises (a GET is safe to repeat). Once: a site resetting every request fails.
        const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
        if (!e.reusedSocket || e.code !== 'ECONNRESET' || signal.aborted) throw err;
        res = await ask();
      }
    } catch (err) {
      throw this.failure(err, raw, exchange);
    }
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) || status === 304 || status >= 400) {
      exchange.drain(res);
      return {
        status,
        headers: res.headers,
        body: Buffer.alloc(0),
        notModified: status === 304,
        mediaType: mediaTypeOf(res.headers),
      };
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.limits.maxBytes) {
      res.destroy();
      throw new FetchFailure(
        'demasiado_grande',
        `La página declara ${declared} bytes; el máximo es ${this.limits.maxBytes}.`,
        raw,
        status,
      );
    }
    try {
      const body = await readCapped(decoded(res), this.limits.maxBytes, raw);
      return { status, headers: res.headers, body, notModified: false, mediaType: mediaTypeOf(res.headers) };
    } catch (err) {
      res.destroy();
      throw this.failure(err, raw, exchange);
    }
  }

  private failure(err: unknown, url: string, exchange: ExchangeSignal): FetchFailure {
    if (err instanceof FetchFailure) return err;
    if (err instanceof AddressRefused) return new FetchFailure('direccion_bloqueada', err.message, url);
    if (exchange.timedOut)
      return new FetchFailure(
        'tiempo_agotado',
        `Sin respuesta completa en ${Math.round(this.limits.timeoutMs / 1000)} s.`,
        url,
      );
    if (exchange.signal.aborted) return new FetchFailure('cancelada', 'Ejecución cancelada.', url);
    const code = (err as NodeJS.ErrnoException).code;
    return new FetchFailure('red', `No se pudo leer la página${code ? ` (${code})` : ''}.`, url);
  }
}

export function mediaTypeOf(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (!decoder) return res;
  // pipe() does not forward errors: a cut connection must end the read, not leave it waiting.
  res.on('error', (err) => decoder.destroy(err));
  res.on('aborted', () => decoder.destroy(new Error('aborted')));
  return res.pipe(decoder);
}

/** Reads a body, refusing it as soon as it passes `max` bytes (decompressed bytes count: no zip bombs). */
async function readCapped(stream: Readable, max: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > max) {
      stream.destroy();
      throw new FetchFailure('demasiado_grande', `La página supera el máximo de ${max} bytes.`, url);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

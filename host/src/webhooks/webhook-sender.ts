import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { AddressRefused, guardedLookup, type AddressPolicy, type Resolver } from '@cerebro/sdk';

/** What one POST to a receiver came to: its status (null when no answer arrived) or the reason it failed. */
export interface SendResult {
  status: number | null;
  error: string | null;
  ms: number;
}

/** Bytes of a receiver's answer read (and dropped) before the socket is closed: enough to end a normal answer. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Why a URL may never be delivered to (scheme, credentials, an IP literal the guard refuses), or null. */
export function urlProblem(raw: string, policy: AddressPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'No es una URL válida.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `Solo se admiten http y https (no ${url.protocol}).`;
  if (url.username || url.password) return 'La dirección no puede llevar usuario ni contraseña.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !policy.allowsHost(host)) return policy.refusal(host);
  return null;
}

/**
 * POSTs one signed body through the address guard of `fuentes` (sdk `AddressPolicy`): an IP literal is judged
 * directly, a name through a lookup that hands the socket only the addresses it checked (no DNS rebinding).
 * Redirects are not followed: a receiver answers where it was registered. Never throws.
 */
export function sendWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { policy: AddressPolicy; resolver: Resolver; timeoutMs: number },
): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): SendResult => ({
    status,
    error,
    ms: Math.round(performance.now() - started),
  });
  const problem = urlProblem(target, options.policy);
  if (problem) return Promise.resolve(done(null, problem));
  const url = new URL(target);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(options.policy, options.resolver),
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const settle = () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          finish(done(status, ok ? null : `El receptor respondió ${status}.`));
          req.destroy();
        };
        res.on('end', settle);
        res.on('close', settle);
        res.on('error', settle);
      },
    );
    const timer = setTimeout(() => {
      finish(done(null, `Sin respuesta en ${Math.round(options.timeoutMs / 1000)} s.`));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof AddressRefused) return finish(done(null, err.message));
      finish(done(null, connectionError(err)));
    });
    req.end(body);
  });
}

/** A connection failure in the owner's words (the code names what happened; no internal detail). */
function connectionError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'Conexión rechazada: el receptor no escucha en esa dirección.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'No se encontró la dirección del receptor.';
    case 'ECONNRESET':
      return 'El receptor cerró la conexión.';
    default:
      return err.code ? `Error de conexión (${err.code}).` : `Error de conexión: ${err.message}`;
  }
}

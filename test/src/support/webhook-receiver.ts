import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The `datos` of the events these tests read. */
export interface Datos {
  documento: { nombre: string; pasajes: number; error: { codigo: string | null } | null };
  saldo: number;
  umbral: number;
  conversacion: string;
  estado: string;
  rol: string;
  texto: string;
  fuente: string;
  ejecucion: { estado: string };
  ficha: { id: string };
  landing: string;
}

/** One POST a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; tipo: string; creado: string; espacio: string; datos: Datos };
}

/** How the receiver answers the n-th request (0-based): a status, or a delay before a 200 (a slow receiver). */
export type Behaviour = (n: number) => { status: number; delayMs?: number };

/** A real HTTP receiver on loopback that records every delivery and answers as told. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private server: Server | null = null;
  private waiters: (() => void)[] = [];
  behaviour: Behaviour = () => ({ status: 200 });

  /** Listens on `port` (0: any free port); returns the URL deliveries go to. */
  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const n = this.received.length;
        this.received.push({ headers: req.headers, body, json: JSON.parse(body) });
        for (const w of this.waiters.splice(0)) w();
        const { status, delayMs } = this.behaviour(n);
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        }, delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    return `http://127.0.0.1:${this.port}/hook`;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }

  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 15_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > until) throw new Error(`the receiver got ${this.received.length} of ${count} deliveries`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
    return this.received;
  }
}

/**
 * Checks `Cerebro-Firma: t=<unix>,v1=<hex>[,v1=<hex>]` the way a receiver should: HMAC-SHA256 of "<t>.<body>" with
 * the secret, compared in constant time, and the timestamp within `toleranceS` of now. True when a v1 matches.
 */
export function verifySignature(header: string | undefined, body: string, secret: string, toleranceS = 300): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, hex]) => {
      const got = Buffer.from(hex, 'hex');
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

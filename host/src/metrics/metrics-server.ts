import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger as PinoLogger } from 'pino';
import { ERROR_CATALOGUE } from '@cerebro/sdk';
import type { HostMetrics } from './metrics-services.js';

export interface MetricsListener {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A second listener that serves only the metrics, without credentials, for a Prometheus on the same machine or
 * network (`CEREBRO_METRICS_HOST` / `CEREBRO_METRICS_PORT`). It answers `GET /metrics` and `GET /api/metrics`;
 * anything else is a 404, so nothing of the API is reachable through it.
 */
export async function listenForMetrics(
  metrics: HostMetrics,
  host: string,
  port: number,
  log: PinoLogger,
): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && (path === '/metrics' || path === '/api/metrics')) {
      metrics.text().then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.contentType });
          res.end(text);
        },
        (err: unknown) => {
          log.error({ err }, 'no se pudieron calcular las métricas');
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ detail: ERROR_CATALOGUE.internal.detail }));
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ detail: ERROR_CATALOGUE.route_not_found.detail }));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  log.info({ url: `${url}/metrics` }, 'métricas sin credencial escuchando');
  return {
    url,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

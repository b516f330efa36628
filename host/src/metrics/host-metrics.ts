import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CreditReason, HostMetrics } from './metrics-services.js';
import { RouteTraffic } from './route-traffic.js';

/** Upper bounds of the indexing duration histogram, in seconds: a small text up to a long scanned PDF. */
const INDEXING_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * The host's Prometheus registry and the counters fed as things happen: requests (per route, see RouteTraffic),
 * credit movements and finished indexing jobs. Gauges that cost a query or a file stat are computed at scrape time
 * (see ScrapeGauges). One registry per host, never prom-client's global one, so tests can run several hosts in one
 * process.
 */
export class PrometheusHostMetrics implements HostMetrics {
  readonly registry = new Registry();
  readonly traffic: RouteTraffic;
  private readonly credits: Record<CreditReason, Counter.Internal>;
  private readonly indexingSeconds: Histogram<'resultado'>;
  private readonly indexingFailures: Counter<'codigo'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'cerebro_' });
    this.traffic = new RouteTraffic(this.registry);
    const credits = new Counter<'motivo'>({
      name: 'cerebro_creditos_total',
      help: 'Créditos movidos en las bolsas, por motivo (consumo = cobrados, reembolso = devueltos).',
      labelNames: ['motivo'],
      registers,
    });
    this.credits = {
      consumo: credits.labels('consumo'),
      reembolso: credits.labels('reembolso'),
      recarga: credits.labels('recarga'),
      ajuste: credits.labels('ajuste'),
    };
    // Every reason is exported from the start (as 0), so rate() and alerts see a series before the first movement.
    for (const child of Object.values(this.credits)) child.inc(0);
    this.indexingSeconds = new Histogram<'resultado'>({
      name: 'cerebro_indexacion_duracion_segundos',
      help: 'Duración de la indexación de cada documento terminado (listo o fallido), en segundos.',
      labelNames: ['resultado'],
      buckets: INDEXING_BUCKETS,
      registers,
    });
    this.indexingFailures = new Counter<'codigo'>({
      name: 'cerebro_indexacion_fallos_total',
      help: 'Documentos cuya indexación falló, por código de error.',
      labelNames: ['codigo'],
      registers,
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text, with every scrape-time gauge computed now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** Credits debited or added (the absolute amount). */
  creditsMoved(reason: CreditReason, amount: number): void {
    this.credits[reason].inc(Math.abs(amount));
  }

  /** A document finished indexing: `seconds` from the start of its run, `failureCode` when it failed. */
  indexingFinished(seconds: number, failureCode: string | null): void {
    this.indexingSeconds.labels(failureCode ? 'fallido' : 'listo').observe(Math.max(0, seconds));
    if (failureCode) this.indexingFailures.labels(failureCode).inc();
  }
}

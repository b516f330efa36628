import { Counter, type Metric, type Registry } from 'prom-client';

/** Upper bounds of the request latency histogram, in seconds: sub-millisecond routes up to slow uploads and answers. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The traffic of one route, counted with plain numbers. prom-client's label children hash their label object on
 * every `inc`/`observe` (an allocation and a string build per request); the pipeline instead keeps one of these
 * per route, bound when the route is mounted, and the registry reads them at scrape time.
 */
export class RouteMeter {
  /** Answers by status code; a Map keyed by number allocates nothing once a status has been seen. */
  readonly byStatus = new Map<number, number>();
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length);
  count = 0;
  sumSeconds = 0;

  constructor(readonly route: string) {}

  record(status: number, ms: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    const seconds = ms / 1000;
    this.count++;
    this.sumSeconds += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]!) {
        this.buckets[i]!++;
        break;
      }
    }
  }
}

const LATENCY_NAME = 'cerebro_peticion_duracion_segundos';

interface Sample { metricName: string; labels: Record<string, string | number>; value: number }

/**
 * `cerebro_peticion_duracion_segundos{ruta}`: a histogram family built from the route meters at scrape time.
 * prom-client's Histogram keeps its own per-label state fed by `observe`, which the hot path avoids; the registry
 * formats any object with a name, help, type and `get()`, which is what this is (hence the one cast at
 * registration).
 */
function registerLatencyHistogram(registry: Registry, meters: () => Iterable<RouteMeter>): void {
  const family = {
    name: LATENCY_NAME,
    help: 'Duración de las peticiones por ruta, en segundos.',
    type: 'histogram',
    aggregator: 'sum',
    get: async () => {
      const values: Sample[] = [];
      for (const meter of meters()) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += meter.buckets[i]!;
          values.push({ metricName: `${LATENCY_NAME}_bucket`, labels: { ruta: meter.route, le }, value: cumulative });
        });
        values.push({ metricName: `${LATENCY_NAME}_bucket`, labels: { ruta: meter.route, le: '+Inf' }, value: meter.count });
        values.push({ metricName: `${LATENCY_NAME}_sum`, labels: { ruta: meter.route }, value: meter.sumSeconds });
        values.push({ metricName: `${LATENCY_NAME}_count`, labels: { ruta: meter.route }, value: meter.count });
      }
      return { name: family.name, help: family.help, type: family.type, aggregator: family.aggregator, values };
    },
  };
  registry.registerMetric(family as unknown as Metric);
}

/** Requests by route and status, and their latency, for every route the app serves (plus unmatched paths). */
export class RouteTraffic {
  private readonly meters = new Map<string, RouteMeter>();

  constructor(registry: Registry) {
    const meters = () => this.meters.values();
    new Counter<'ruta' | 'estado'>({
      name: 'cerebro_peticiones_total', help: 'Peticiones atendidas, por ruta y código de estado.', labelNames: ['ruta', 'estado'], registers: [registry],
      collect() {
        this.reset();
        for (const meter of meters()) for (const [status, n] of meter.byStatus) this.labels(meter.route, String(status)).inc(n);
      },
    });
    registerLatencyHistogram(registry, meters);
  }

  /** The meter of a route label (`GET /rag/:espacio/documents`), created once when the route is mounted. */
  meterFor(route: string): RouteMeter {
    let meter = this.meters.get(route);
    if (!meter) {
      meter = new RouteMeter(route);
      this.meters.set(route, meter);
    }
    return meter;
  }
}

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
  readonly latency = new Buckets();
  /** Time waited for a turn before the work began (RequestContext.queuedMs). */
  readonly wait = new Buckets();

  constructor(readonly route: string) {}

  record(status: number, ms: number, queuedMs = 0): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    this.latency.observe(ms / 1000);
    this.wait.observe(queuedMs / 1000);
  }
}

/** One histogram's state with plain numbers: per-bucket counts (not cumulative), count and sum. */
export class Buckets {
  readonly counts = new Float64Array(LATENCY_BUCKETS.length);
  count = 0;
  sumSeconds = 0;

  observe(seconds: number): void {
    this.count++;
    this.sumSeconds += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]!) {
        this.counts[i]!++;
        break;
      }
    }
  }
}

interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * A histogram family by route (`cerebro_peticion_duracion_segundos{ruta}`), built from the route meters at scrape time.
 * prom-client's Histogram keeps its own per-label state fed by `observe`, which the hot path avoids; the registry
 * formats any object with a name, help, type and `get()`, which is what this is (hence the one cast at
 * registration).
 */
function registerRouteHistogram(
  registry: Registry,
  name: string,
  help: string,
  meters: () => Iterable<RouteMeter>,
  of: (m: RouteMeter) => Buckets,
): void {
  const family = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => {
      const values: Sample[] = [];
      for (const meter of meters()) {
        const h = of(meter);
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += h.counts[i]!;
          values.push({ metricName: `${name}_bucket`, labels: { ruta: meter.route, le }, value: cumulative });
        });
        values.push({ metricName: `${name}_bucket`, labels: { ruta: meter.route, le: '+Inf' }, value: h.count });
        values.push({ metricName: `${name}_sum`, labels: { ruta: meter.route }, value: h.sumSeconds });
        values.push({ metricName: `${name}_count`, labels: { ruta: meter.route }, value: h.count });
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
      name: 'cerebro_peticiones_total',
      help: 'Peticiones atendidas, por ruta y código de estado.',
      labelNames: ['ruta', 'estado'],
      registers: [registry],
      collect() {
        this.reset();
        for (const meter of meters())
          for (const [status, n] of meter.byStatus) this.labels(meter.route, String(status)).inc(n);
      },
    });
    registerRouteHistogram(
      registry,
      'cerebro_peticion_duracion_segundos',
      'Duración de las peticiones por ruta, en segundos.',
      meters,
      (m) => m.latency,
    );
    registerRouteHistogram(
      registry,
      'cerebro_peticion_espera_segundos',
      'Espera de las peticiones por ruta antes de empezar su trabajo (turno de preguntas del espacio), en segundos.',
      meters,
      (m) => m.wait,
    );
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

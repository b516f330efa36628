// The host metrics' interface, which the host's token is typed by: the pipeline, the credit ledger and indexing
// feed it without depending on the class that implements it.
import type { Registry } from 'prom-client';
import type { RouteTraffic } from './route-traffic.js';

/** Why credits moved, as the ledger records it (`consumo` = debited by a request, `reembolso` = given back). */
export type CreditReason = 'consumo' | 'reembolso' | 'recarga' | 'ajuste';

/** The host's Prometheus registry and the counters fed as things happen (see `PrometheusHostMetrics`). */
export interface HostMetrics {
  readonly registry: Registry;
  /** Requests per route. */
  readonly traffic: RouteTraffic;
  readonly contentType: string;
  /** The exposition text, with every scrape-time gauge computed now. */
  text(): Promise<string>;
  /** Credits debited or added (the absolute amount). */
  creditsMoved(reason: CreditReason, amount: number): void;
  /** A document finished indexing: `seconds` from the start of its run, `failureCode` when it failed. */
  indexingFinished(seconds: number, failureCode: string | null): void;
}

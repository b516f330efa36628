import { createToken } from '@cerebro/sdk';

/** Documents (and their passages) of one space in one indexing state. */
export interface DocumentCount {
  space: string;
  state: string;
  documents: number;
  passages: number;
}

/** What the scrape-time gauges read from storage. Read-only; each method is one query (no transaction needed). */
export interface MetricsRepository {
  /** Documents and passages grouped by space and state (an empty list once the storage is closed). */
  documentCounts(): Promise<DocumentCount[]>;
}

export const MetricsRepositoryToken = createToken<MetricsRepository>('host:metrics-repository');

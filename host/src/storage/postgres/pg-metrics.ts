// The scrape-time gauges' read on PostgreSQL: one grouped query over the documents table, not the passages.
import type { DocumentCount, MetricsRepository } from '../port/metrics-repository.js';
import type { Pool } from './pg-driver.js';

export class PgMetricsRepository implements MetricsRepository {
  constructor(private readonly pool: Pool) {}

  async documentCounts(): Promise<DocumentCount[]> {
    // A scrape during shutdown finds the pool ended: nothing to count, as on SQLite once its file is closed.
    if (this.pool.ending) return [];
    const r = await this.pool.query<DocumentCount>(
      `SELECT space, state, count(*) AS documents, coalesce(sum(passages), 0) AS passages
       FROM cerebro_documents GROUP BY space, state`,
    );
    return r.rows;
  }
}

import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { DocumentCount, MetricsRepository } from '../port/metrics-repository.js';

/** The gauges' reads over the host's database: one grouped query over the documents table, not the passages. */
@injectable()
export class SqliteMetricsRepository implements MetricsRepository {
  private readonly byState;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.byState = db.prepare<[], DocumentCount>(
      'SELECT space, state, count(*) AS documents, coalesce(sum(passages), 0) AS passages FROM cerebro_documents GROUP BY space, state',
    );
  }

  async documentCounts(): Promise<DocumentCount[]> {
    // A scrape during shutdown finds the database closed: nothing to count.
    return this.db.open ? this.byState.all() : [];
  }
}

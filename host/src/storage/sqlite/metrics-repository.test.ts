import 'reflect-metadata';
import { metricsRepositoryContract } from '../port/metrics-repository.contract.js';
import { migratedSqliteFile, seedDocument } from './migrated-sqlite-file.js';
import { SqliteMetricsRepository } from './metrics-repository.js';

metricsRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return {
    repo: new SqliteMetricsRepository(file.db),
    async addDocument(space, state, passages) {
      seedDocument(file.db, space, { state, passages });
    },
    close: file.close,
  };
});

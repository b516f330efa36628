import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { metricsRepositoryContract } from '../port/metrics-repository.contract.js';
import { migratedSqliteFile } from './migrated-sqlite-file.js';
import { SqliteMetricsRepository } from './metrics-repository.js';

metricsRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  const insert = file.db.prepare(
    `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, passages, created_at, updated_at, queued_at)
     VALUES (?, ?, ?, 'text/plain', ?, ?, ?, ?, ?, ?)`,
  );
  return {
    repo: new SqliteMetricsRepository(file.db),
    async addDocument(space, state, passages) {
      const id = randomUUID();
      const at = new Date().toISOString();
      insert.run(space, id, `${id}.txt`, `${id}.txt`, state, passages, at, at, at);
    },
    close: file.close,
  };
});

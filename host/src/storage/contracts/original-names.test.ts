import 'reflect-metadata';
import { originalNamesContract } from '../port/original-names.contract.js';
import { PgDocumentJobRepository } from '../postgres/pg-document-jobs.js';
import { SqliteDocumentJobRepository } from '../sqlite/document-job-repository.js';
import { migratedTestDatabase } from '../sqlite/migrated-test-database.js';
import type { TestDatabase } from '../postgres/testing/pg-test-database.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(originalNamesContract, {
  async sqlite() {
    const { db, close } = await migratedTestDatabase();
    return { repo: new SqliteDocumentJobRepository(db), close };
  },
  async postgres({ pool }: TestDatabase) {
    return { repo: new PgDocumentJobRepository(pool), close: async () => undefined };
  },
});

// The engine's repositories' contracts (documents and jobs, vectors), the same ones SQLite passes, against PostgreSQL.
import 'reflect-metadata';
import { after, describe } from 'node:test';
import { documentJobRepositoryContract } from '../port/document-job-repository.contract.js';
import { vectorRepositoryContract } from '../port/vector-repository.contract.js';
import { PgDocumentJobRepository } from './pg-document-jobs.js';
import { PgVectorRepositories } from './pg-vectors.js';
import { dropMigratedTemplate, migratedPgDatabase } from './testing/migrated-pg-database.js';
import { pgUnavailable } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;
after(dropMigratedTemplate);

describe('PostgreSQL engine repositories', { skip }, () => {
  documentJobRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgDocumentJobRepository(db.pool),
      other: new PgDocumentJobRepository(await db.connect()),
      close: db.close,
    };
  });

  vectorRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return { repo: new PgVectorRepositories(db.pool).forDimensions(3), close: db.close };
  });
});

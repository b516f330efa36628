// The engine's repositories' contracts (documents and jobs, vectors), the same ones SQLite passes, against PostgreSQL.
import 'reflect-metadata';
import { after, describe } from 'node:test';
import { documentJobRepositoryContract, type StepRecorder } from '../port/document-job-repository.contract.js';
import { vectorRepositoryContract } from '../port/vector-repository.contract.js';
import { PgDocumentJobRepository } from './pg-document-jobs.js';
import type { PgJobPassageSteps } from './pg-job-passage-steps.js';
import { PgVectorRepositories } from './pg-vectors.js';
import { dropMigratedTemplate, migratedPgDatabase } from './testing/migrated-pg-database.js';
import { pgUnavailable } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;
after(dropMigratedTemplate);

/** PostgreSQL's steps doing what the recorder records (on the transaction's client, which they do not use). */
const recordedSteps = (r: StepRecorder): PgJobPassageSteps => ({
  backend: 'postgresql',
  swapIn: async (_db, run) => r.swapIn(run),
  swapInPrepared: async (_db, run, passages) => r.swapInPrepared(run, passages),
  hideDocument: async (_db, space, id) => r.hideDocument(space, id),
  abandonDocumentRuns: async (_db, space, id) => r.abandonDocumentRuns(space, id),
  abandonOrphanRuns: async () => r.abandonOrphanRuns(),
  deleteDocument: async (_db, space, id) => {
    r.deleteDocument(space, id);
    return [];
  },
});

describe('PostgreSQL engine repositories', { skip }, () => {
  documentJobRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgDocumentJobRepository(db.pool),
      other: new PgDocumentJobRepository(await db.connect()),
      steps: recordedSteps,
      close: db.close,
    };
  });

  vectorRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return { repo: new PgVectorRepositories(db.pool).forDimensions(3), close: db.close };
  });
});

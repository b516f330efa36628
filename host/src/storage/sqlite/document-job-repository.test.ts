import 'reflect-metadata';
import { documentJobRepositoryContract } from '../port/document-job-repository.contract.js';
import { SqliteDocumentJobRepository } from './document-job-repository.js';
import { migratedDatabaseFile } from './migrated-file.js';

documentJobRepositoryContract('SQLite', async () => {
  const { db, second, close } = await migratedDatabaseFile();
  return { repo: new SqliteDocumentJobRepository(db), other: new SqliteDocumentJobRepository(second), close };
});

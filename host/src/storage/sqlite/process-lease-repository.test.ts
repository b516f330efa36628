import 'reflect-metadata';
import { processLeaseRepositoryContract } from '../port/process-lease-repository.contract.js';
import { migratedDatabaseFile } from './migrated-file.js';
import { SqliteProcessLeaseRepository } from './process-lease-repository.js';

processLeaseRepositoryContract('SQLite', async () => {
  const { db, second, close } = await migratedDatabaseFile();
  return { repo: new SqliteProcessLeaseRepository(db), other: new SqliteProcessLeaseRepository(second), close };
});

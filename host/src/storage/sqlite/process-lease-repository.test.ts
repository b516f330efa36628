import 'reflect-metadata';
import { processLeaseRepositoryContract } from '../port/process-lease-repository.contract.js';
import { openMigratedTestDatabase } from './access-fixture.js';
import { SqliteProcessLeaseRepository } from './process-lease-repository.js';

processLeaseRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteProcessLeaseRepository(db), close };
});

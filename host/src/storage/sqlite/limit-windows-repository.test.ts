import 'reflect-metadata';
import { limitWindowsRepositoryContract } from '../port/limit-windows-repository.contract.js';
import { SqliteLimitWindowsRepository } from './limit-windows-repository.js';
import { migratedTestDatabase } from './migrated-test-database.js';

limitWindowsRepositoryContract('sqlite', async () => {
  const { db, close } = await migratedTestDatabase();
  return { repo: new SqliteLimitWindowsRepository(db), close };
});

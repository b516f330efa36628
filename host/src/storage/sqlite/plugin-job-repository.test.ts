import 'reflect-metadata';
import { pluginJobRepositoryContract } from '../port/plugin-job-repository.contract.js';
import { migratedDatabaseFile } from './migrated-file.js';
import { SqlitePluginJobRepository } from './plugin-job-repository.js';

pluginJobRepositoryContract('SQLite', async () => {
  const { db, second, close } = await migratedDatabaseFile();
  return { repo: new SqlitePluginJobRepository(db), other: new SqlitePluginJobRepository(second), close };
});

import 'reflect-metadata';
import { vectorRepositoryContract } from '../port/vector-repository.contract.js';
import { migratedDatabaseFile } from './migrated-file.js';
import { SqliteVectorRepositories } from './vector-repository.js';

vectorRepositoryContract('SQLite', async () => {
  const { db, close } = await migratedDatabaseFile();
  return { repo: new SqliteVectorRepositories(db).forDimensions(3), close };
});

import 'reflect-metadata';
import { changeVersionRepositoryContract } from '../port/change-version-repository.contract.js';
import { openMigratedTestDatabase } from './access-fixture.js';
import { SqliteChangeVersionRepository } from './change-version-repository.js';

changeVersionRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteChangeVersionRepository(db), close };
});

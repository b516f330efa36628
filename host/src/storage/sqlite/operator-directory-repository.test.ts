import 'reflect-metadata';
import { operatorDirectoryRepositoryContract } from '../port/operator-directory-repository.contract.js';
import { openMigratedTestDatabase } from './access-fixture.js';
import { SqliteDirectoryRepository } from './directory-repository.js';
import { SqliteOperatorDirectoryRepository } from './operator-directory-repository.js';

operatorDirectoryRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return {
    repo: new SqliteOperatorDirectoryRepository(db),
    directory: new SqliteDirectoryRepository(db),
    close,
  };
});

import 'reflect-metadata';
import { directoryRepositoryContract } from '../port/directory-repository.contract.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from './access-fixture.js';
import { SqliteDirectoryRepository } from './directory-repository.js';

directoryRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteDirectoryRepository(db), fixture: sqliteAccessFixture(db), close };
});

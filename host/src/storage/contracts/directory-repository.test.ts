import 'reflect-metadata';
import { directoryRepositoryContract } from '../port/directory-repository.contract.js';
import { PgDirectoryRepository } from '../postgres/pg-directory-repository.js';
import { pgAccessFixture } from '../postgres/testing/pg-access-fixture.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from '../sqlite/access-fixture.js';
import { SqliteDirectoryRepository } from '../sqlite/directory-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(directoryRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return { repo: new SqliteDirectoryRepository(db), fixture: sqliteAccessFixture(db), close };
  },
  async postgres({ pool }) {
    return { repo: new PgDirectoryRepository(pool), fixture: pgAccessFixture(pool), close: async () => undefined };
  },
});

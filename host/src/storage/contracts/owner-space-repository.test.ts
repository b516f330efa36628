import 'reflect-metadata';
import { ownerSpaceRepositoryContract } from '../port/owner-space-repository.contract.js';
import { PgDirectoryRepository } from '../postgres/pg-directory-repository.js';
import { PgOwnerSpaceRepository } from '../postgres/pg-owner-space-repository.js';
import { pgAccessFixture } from '../postgres/testing/pg-access-fixture.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from '../sqlite/access-fixture.js';
import { SqliteDirectoryRepository } from '../sqlite/directory-repository.js';
import { SqliteOwnerSpaceRepository } from '../sqlite/owner-space-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(ownerSpaceRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return {
      repo: new SqliteOwnerSpaceRepository(db),
      fixture: sqliteAccessFixture(db),
      directory: new SqliteDirectoryRepository(db),
      close,
    };
  },
  async postgres({ pool }) {
    return {
      repo: new PgOwnerSpaceRepository(pool),
      fixture: pgAccessFixture(pool),
      directory: new PgDirectoryRepository(pool),
      close: async () => undefined,
    };
  },
});

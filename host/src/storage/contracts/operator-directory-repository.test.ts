import 'reflect-metadata';
import { operatorDirectoryRepositoryContract } from '../port/operator-directory-repository.contract.js';
import { PgDirectoryRepository } from '../postgres/pg-directory-repository.js';
import { PgOperatorDirectoryRepository } from '../postgres/pg-operator-directory-repository.js';
import { openMigratedTestDatabase } from '../sqlite/access-fixture.js';
import { SqliteDirectoryRepository } from '../sqlite/directory-repository.js';
import { SqliteOperatorDirectoryRepository } from '../sqlite/operator-directory-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(operatorDirectoryRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return {
      repo: new SqliteOperatorDirectoryRepository(db),
      directory: new SqliteDirectoryRepository(db),
      close,
    };
  },
  async postgres({ pool }) {
    return {
      repo: new PgOperatorDirectoryRepository(pool),
      directory: new PgDirectoryRepository(pool),
      close: async () => undefined,
    };
  },
});

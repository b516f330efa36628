import 'reflect-metadata';
import { changeVersionRepositoryContract } from '../port/change-version-repository.contract.js';
import { PgChangeVersionRepository } from '../postgres/pg-change-version-repository.js';
import { openMigratedTestDatabase } from '../sqlite/access-fixture.js';
import { SqliteChangeVersionRepository } from '../sqlite/change-version-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(changeVersionRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return { repo: new SqliteChangeVersionRepository(db), close };
  },
  async postgres({ pool }) {
    return { repo: new PgChangeVersionRepository(pool), close: async () => undefined };
  },
});

import 'reflect-metadata';
import { limitWindowsRepositoryContract } from '../port/limit-windows-repository.contract.js';
import { PgLimitWindows } from '../postgres/pg-limit-windows.js';
import { SqliteLimitWindowsRepository } from '../sqlite/limit-windows-repository.js';
import { migratedTestDatabase } from '../sqlite/migrated-test-database.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(limitWindowsRepositoryContract, {
  async sqlite() {
    const { db, close } = await migratedTestDatabase();
    return { repo: new SqliteLimitWindowsRepository(db), close };
  },
  async postgres({ pool }) {
    return { repo: new PgLimitWindows(pool), close: async () => undefined };
  },
});

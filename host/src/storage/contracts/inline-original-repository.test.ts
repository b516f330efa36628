import 'reflect-metadata';
import { inlineOriginalRepositoryContract } from '../port/inline-original-repository.contract.js';
import { PgInlineOriginalRepository } from '../postgres/pg-inline-originals.js';
import { SqliteInlineOriginalRepository } from '../sqlite/inline-original-repository.js';
import { migratedTestDatabase } from '../sqlite/migrated-test-database.js';
import type { TestDatabase } from '../postgres/testing/pg-test-database.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(inlineOriginalRepositoryContract, {
  async sqlite() {
    const { db, close } = await migratedTestDatabase();
    return { repo: new SqliteInlineOriginalRepository(db), close };
  },
  async postgres({ pool }: TestDatabase) {
    return { repo: new PgInlineOriginalRepository(pool), close: async () => undefined };
  },
});

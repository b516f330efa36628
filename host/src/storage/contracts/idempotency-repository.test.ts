import 'reflect-metadata';
import { idempotencyRepositoryContract } from '../port/idempotency-repository.contract.js';
import { PgIdempotencyRepository } from '../postgres/pg-idempotency-repository.js';
import { openMigratedTestDatabase } from '../sqlite/access-fixture.js';
import { SqliteIdempotencyRepository } from '../sqlite/idempotency-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(idempotencyRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return { repo: new SqliteIdempotencyRepository(db), close };
  },
  async postgres({ pool }) {
    return { repo: new PgIdempotencyRepository(pool), close: async () => undefined };
  },
});

import 'reflect-metadata';
import { idempotencyRepositoryContract } from '../port/idempotency-repository.contract.js';
import { openMigratedTestDatabase } from './access-fixture.js';
import { SqliteIdempotencyRepository } from './idempotency-repository.js';

idempotencyRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteIdempotencyRepository(db), close };
});

import 'reflect-metadata';
import { signInFailureRepositoryContract } from '../port/sign-in-failure-repository.contract.js';
import { PgSignInFailures } from '../postgres/pg-sign-in-failures.js';
import { openMigratedTestDatabase } from '../sqlite/access-fixture.js';
import { SqliteSignInFailureRepository } from '../sqlite/sign-in-failure-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(signInFailureRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return { repo: new SqliteSignInFailureRepository(db), close };
  },
  async postgres({ pool }) {
    return { repo: new PgSignInFailures(pool), close: async () => undefined };
  },
});

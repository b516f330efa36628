import 'reflect-metadata';
import { signInLinkRepositoryContract } from '../port/sign-in-link-repository.contract.js';
import { PgSignInLinkRepository } from '../postgres/pg-sign-in-link-repository.js';
import { pgAccessFixture } from '../postgres/testing/pg-access-fixture.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from '../sqlite/access-fixture.js';
import { SqliteSignInLinkRepository } from '../sqlite/sign-in-link-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(signInLinkRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return { repo: new SqliteSignInLinkRepository(db), fixture: sqliteAccessFixture(db), close };
  },
  async postgres({ pool }) {
    return { repo: new PgSignInLinkRepository(pool), fixture: pgAccessFixture(pool), close: async () => undefined };
  },
});

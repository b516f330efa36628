import 'reflect-metadata';
import { ownerLoginRepositoryContract } from '../port/owner-login-repository.contract.js';
import { PgConsoleSessionRepository } from '../postgres/pg-console-session-repository.js';
import { PgOwnerLoginRepository } from '../postgres/pg-owner-login-repository.js';
import { pgAccessFixture } from '../postgres/testing/pg-access-fixture.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from '../sqlite/access-fixture.js';
import { SqliteConsoleSessionRepository } from '../sqlite/console-session-repository.js';
import { SqliteOwnerLoginRepository } from '../sqlite/owner-login-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(ownerLoginRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return {
      repo: new SqliteOwnerLoginRepository(db),
      sessions: new SqliteConsoleSessionRepository(db),
      fixture: sqliteAccessFixture(db),
      close,
    };
  },
  async postgres({ pool }) {
    return {
      repo: new PgOwnerLoginRepository(pool),
      sessions: new PgConsoleSessionRepository(pool),
      fixture: pgAccessFixture(pool),
      close: async () => undefined,
    };
  },
});

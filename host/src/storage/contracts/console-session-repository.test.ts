import 'reflect-metadata';
import { consoleSessionRepositoryContract } from '../port/console-session-repository.contract.js';
import { PgConsoleSessionRepository } from '../postgres/pg-console-session-repository.js';
import { pgAccessFixture } from '../postgres/testing/pg-access-fixture.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from '../sqlite/access-fixture.js';
import { SqliteConsoleSessionRepository } from '../sqlite/console-session-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(consoleSessionRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return { repo: new SqliteConsoleSessionRepository(db), fixture: sqliteAccessFixture(db), close };
  },
  async postgres({ pool }) {
    return { repo: new PgConsoleSessionRepository(pool), fixture: pgAccessFixture(pool), close: async () => undefined };
  },
});

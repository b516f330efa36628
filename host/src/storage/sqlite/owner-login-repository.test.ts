import 'reflect-metadata';
import { ownerLoginRepositoryContract } from '../port/owner-login-repository.contract.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from './access-fixture.js';
import { SqliteConsoleSessionRepository } from './console-session-repository.js';
import { SqliteOwnerLoginRepository } from './owner-login-repository.js';

ownerLoginRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return {
    repo: new SqliteOwnerLoginRepository(db),
    sessions: new SqliteConsoleSessionRepository(db),
    fixture: sqliteAccessFixture(db),
    close,
  };
});

import 'reflect-metadata';
import { consoleSessionRepositoryContract } from '../port/console-session-repository.contract.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from './access-fixture.js';
import { SqliteConsoleSessionRepository } from './console-session-repository.js';

consoleSessionRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteConsoleSessionRepository(db), fixture: sqliteAccessFixture(db), close };
});

import 'reflect-metadata';
import { signInLinkRepositoryContract } from '../port/sign-in-link-repository.contract.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from './access-fixture.js';
import { SqliteSignInLinkRepository } from './sign-in-link-repository.js';

signInLinkRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteSignInLinkRepository(db), fixture: sqliteAccessFixture(db), close };
});

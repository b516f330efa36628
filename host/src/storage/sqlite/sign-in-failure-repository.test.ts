import 'reflect-metadata';
import { signInFailureRepositoryContract } from '../port/sign-in-failure-repository.contract.js';
import { openMigratedTestDatabase } from './access-fixture.js';
import { SqliteSignInFailureRepository } from './sign-in-failure-repository.js';

signInFailureRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteSignInFailureRepository(db), close };
});

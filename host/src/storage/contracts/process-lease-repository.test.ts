import 'reflect-metadata';
import { processLeaseRepositoryContract } from '../port/process-lease-repository.contract.js';
import { createPgPool } from '../postgres/pg-driver.js';
import { PgProcessLeaseRepository } from '../postgres/pg-process-lease-repository.js';
import { migratedDatabaseFile } from '../sqlite/migrated-file.js';
import { SqliteProcessLeaseRepository } from '../sqlite/process-lease-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(processLeaseRepositoryContract, {
  async sqlite() {
    const { db, second, close } = await migratedDatabaseFile();
    return { repo: new SqliteProcessLeaseRepository(db), other: new SqliteProcessLeaseRepository(second), close };
  },
  async postgres({ pool, url }) {
    // The other host: a pool of its own on the same database.
    const second = await createPgPool(url, { max: 2 });
    return {
      repo: new PgProcessLeaseRepository(pool),
      other: new PgProcessLeaseRepository(second),
      close: () => second.end(),
    };
  },
});

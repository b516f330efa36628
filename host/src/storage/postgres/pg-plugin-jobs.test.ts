// The plugin job repository's contract on a real PostgreSQL server (skipped, with the reason, when none answers):
// two pools on one database act as two hosts.
import { test } from 'node:test';
import { pluginJobRepositoryContract } from '../port/plugin-job-repository.contract.js';
import { PG_HOST_MIGRATIONS } from './migrations/index.js';
import { createPgPool } from './pg-driver.js';
import { applyPgMigrations } from './pg-migrator.js';
import { PgPluginJobRepository } from './pg-plugin-jobs.js';
import { createTestDatabase, pgUnavailable } from './testing/pg-test-database.js';

const unavailable = await pgUnavailable();
if (unavailable) test(unavailable, { skip: unavailable }, () => {});
else
  pluginJobRepositoryContract('PostgreSQL', async () => {
    const db = await createTestDatabase(4);
    await applyPgMigrations(db.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
    const second = await createPgPool(db.url, { max: 4 });
    return {
      repo: new PgPluginJobRepository(db.pool),
      other: new PgPluginJobRepository(second),
      async close() {
        await second.end();
        await db.drop();
      },
    };
  });

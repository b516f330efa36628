import { test } from 'node:test';
import { auditLogRepositoryContract } from '../port/audit-log-repository.contract.js';
import { PG_HOST_MIGRATIONS } from './migrations/index.js';
import { PgAuditLog } from './pg-audit-log.js';
import { applyPgMigrations } from './pg-migrator.js';
import { createTestDatabase, pgUnavailable } from './testing/pg-test-database.js';

const unavailable = await pgUnavailable();
if (unavailable) test('PostgreSQL audit log', { skip: unavailable }, () => {});
else
  auditLogRepositoryContract('PostgreSQL', async () => {
    const db = await createTestDatabase(2);
    await applyPgMigrations(db.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
    return { repo: new PgAuditLog(db.pool), close: () => db.drop() };
  });

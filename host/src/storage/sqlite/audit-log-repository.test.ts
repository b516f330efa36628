import 'reflect-metadata';
import { auditLogRepositoryContract } from '../port/audit-log-repository.contract.js';
import { openMigratedTestDatabase } from './access-fixture.js';
import { SqliteAuditLogRepository } from './audit-log-repository.js';

auditLogRepositoryContract('SQLite', async () => {
  const { db, close } = openMigratedTestDatabase();
  return { repo: new SqliteAuditLogRepository(db), close };
});

import 'reflect-metadata';
import { webhookRepositoryContract } from '../port/webhook-repository.contract.js';
import { migratedSqliteFile, seedAccount, seedSpace } from './migrated-sqlite-file.js';
import { SqliteWebhookRepository } from './webhook-repository.js';

webhookRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return {
    repo: new SqliteWebhookRepository(file.db),
    other: new SqliteWebhookRepository(file.connect()),
    async openSpace(accountId = seedAccount(file.db)) {
      return { spaceId: seedSpace(file.db, accountId), accountId };
    },
    close: file.close,
  };
});

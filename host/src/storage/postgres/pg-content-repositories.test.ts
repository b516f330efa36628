// The content repositories' contracts (the same ones SQLite passes) against PostgreSQL: each case on a fresh
// database cloned from a migrated template, with a second pool on it where a contract needs another process's view.
import 'reflect-metadata';
import { after, describe } from 'node:test';
import { answerCacheRepositoryContract } from '../port/answer-cache-repository.contract.js';
import { conversationRepositoryContract } from '../port/conversation-repository.contract.js';
import { creditLedgerRepositoryContract } from '../port/credit-ledger-repository.contract.js';
import { documentLabelRepositoryContract } from '../port/document-label-repository.contract.js';
import { documentOriginRepositoryContract } from '../port/document-origin-repository.contract.js';
import { metricsRepositoryContract } from '../port/metrics-repository.contract.js';
import { ragSettingsRepositoryContract } from '../port/rag-settings-repository.contract.js';
import { webhookRepositoryContract } from '../port/webhook-repository.contract.js';
import { PgAnswerCacheRepository } from './pg-answer-cache.js';
import { PgConversationRepository } from './pg-conversations.js';
import { PgCreditLedgerRepository } from './pg-credit-ledger.js';
import { PgDocumentLabelRepository } from './pg-document-labels.js';
import { PgDocumentOriginRepository } from './pg-document-origins.js';
import { PgMetricsRepository } from './pg-metrics.js';
import { PgRagSettingsRepository } from './pg-rag-settings.js';
import { PgWebhookRepository } from './pg-webhooks.js';
import {
  dropMigratedTemplate,
  migratedPgDatabase,
  seedPgAccount,
  seedPgDocument,
  seedPgSpace,
} from './testing/migrated-pg-database.js';
import { pgUnavailable } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;
after(dropMigratedTemplate);

describe('PostgreSQL content repositories', { skip }, () => {
  creditLedgerRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgCreditLedgerRepository(db.pool),
      other: new PgCreditLedgerRepository(await db.connect()),
      openAccount: (credits) => seedPgAccount(db.pool, credits),
      close: db.close,
    };
  });

  webhookRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgWebhookRepository(db.pool),
      other: new PgWebhookRepository(await db.connect()),
      async openSpace(accountId) {
        const account = accountId ?? (await seedPgAccount(db.pool));
        return { spaceId: await seedPgSpace(db.pool, account), accountId: account };
      },
      close: db.close,
    };
  });

  metricsRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgMetricsRepository(db.pool),
      async addDocument(space, state, passages) {
        await seedPgDocument(db.pool, space, { state, passages });
      },
      close: db.close,
    };
  });

  answerCacheRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return { repo: new PgAnswerCacheRepository(db.pool), close: db.close };
  });

  ragSettingsRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return { repo: new PgRagSettingsRepository(db.pool), close: db.close };
  });

  conversationRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgConversationRepository(db.pool),
      other: new PgConversationRepository(await db.connect()),
      close: db.close,
    };
  });

  documentLabelRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgDocumentLabelRepository(db.pool),
      addDocument: (space, name, createdAt) => seedPgDocument(db.pool, space, { name, createdAt }),
      close: db.close,
    };
  });

  documentOriginRepositoryContract('PostgreSQL', async () => {
    const db = await migratedPgDatabase();
    return {
      repo: new PgDocumentOriginRepository(db.pool),
      addDocument: (space, name) => seedPgDocument(db.pool, space, { name }),
      deleteDocument: async (space, id) => {
        await db.pool.query('DELETE FROM cerebro_documents WHERE space = $1 AND id = $2', [space, id]);
      },
      close: db.close,
    };
  });
});

// The content repositories on PostgreSQL, registered in place of the SQLite ones when `CEREBRO_DATABASE_URL` is set
// (the backend selection calls this beside `registerPgAccessRepositories`). Every module reached from here imports
// `pg` only as types: the driver itself is loaded by `createPgPool`, which made `pool`.
import { createToken } from '@cerebro/sdk';
import type { DependencyContainer } from 'tsyringe';
import { AnswerCacheRepositoryToken } from '../storage/port/answer-cache-repository.js';
import { AuditLogRepositoryToken } from '../storage/port/audit-log-repository.js';
import { PgAuditLog } from '../storage/postgres/pg-audit-log.js';
import { PluginJobRepositoryToken } from '../storage/port/plugin-job-repository.js';
import { PgPluginJobRepository } from '../storage/postgres/pg-plugin-jobs.js';
import { ConversationRepositoryToken } from '../storage/port/conversation-repository.js';
import { CreditLedgerRepositoryToken } from '../storage/port/credit-ledger-repository.js';
import { DocumentJobRepositoryToken, DocumentReadsNowToken } from '../storage/port/document-job-repository.js';
import { DocumentOriginRepositoryToken, DocumentOriginsNowToken } from '../storage/port/document-origin-repository.js';
import { PassageIndexRepositoryToken } from '../storage/port/passage-index-repository.js';
import { DocumentLabelRepositoryToken } from '../storage/port/document-label-repository.js';
import { MetricsRepositoryToken } from '../storage/port/metrics-repository.js';
import { RagSettingsRepositoryToken } from '../storage/port/rag-settings-repository.js';
import { VectorRepositoriesToken } from '../storage/port/vector-repository.js';
import { WebhookRepositoryToken } from '../storage/port/webhook-repository.js';
import { PgAnswerCacheRepository } from '../storage/postgres/pg-answer-cache.js';
import { PgConversationRepository } from '../storage/postgres/pg-conversations.js';
import { PgCreditLedgerRepository } from '../storage/postgres/pg-credit-ledger.js';
import { PgDocumentJobRepository } from '../storage/postgres/pg-document-jobs.js';
import { PgDocumentLabelRepository } from '../storage/postgres/pg-document-labels.js';
import type { Pool } from '../storage/postgres/pg-driver.js';
import { PgDeprecatedSyncDocumentReads } from '../storage/postgres/pg-deprecated-sync-reads.js';
import { PgDocumentOriginRepository } from '../storage/postgres/pg-document-origins.js';
import { PgPassageIndexRepository } from '../storage/postgres/passage-index/pg-passage-index-repository.js';
import { PgMetricsRepository } from '../storage/postgres/pg-metrics.js';
import { PgPluginSchemas, type PluginSchemas } from '../storage/postgres/pg-plugin-schemas.js';
import { PgRagSettingsRepository } from '../storage/postgres/pg-rag-settings.js';
import { PgVectorRepositories } from '../storage/postgres/pg-vectors.js';
import { PgWebhookRepository } from '../storage/postgres/pg-webhooks.js';

/** The plugins' schemas and roles on PostgreSQL (what `PluginDatabases` is on SQLite): the plugin loader's source. */
export const PgPluginSchemasToken = createToken<PluginSchemas>('host:pg-plugin-schemas');

/**
 * Registers one instance of each content repository over `pool` (made by `createPgPool` from the database URL, which
 * the plugins' own pools reuse with their roles). The passage index and the document repository go together: the
 * index's job steps run inside the document repository's transactions, which delete a removed document's vectors
 * after its passages. The sdk's deprecated synchronous document reads (`DocumentReadsNowToken`,
 * `DocumentOriginsNowToken`) refuse, naming their async replacements: a server cannot be read synchronously.
 */
export function registerPgContentRepositories(c: DependencyContainer, pool: Pool): void {
  const url = pool.options.connectionString;
  if (!url)
    throw new Error('registerPgContentRepositories: the pool must be made from a connection URL (createPgPool).');
  c.register(CreditLedgerRepositoryToken, { useValue: new PgCreditLedgerRepository(pool) });
  c.register(WebhookRepositoryToken, { useValue: new PgWebhookRepository(pool) });
  c.register(MetricsRepositoryToken, { useValue: new PgMetricsRepository(pool) });
  c.register(AnswerCacheRepositoryToken, { useValue: new PgAnswerCacheRepository(pool) });
  c.register(RagSettingsRepositoryToken, { useValue: new PgRagSettingsRepository(pool) });
  c.register(ConversationRepositoryToken, { useValue: new PgConversationRepository(pool) });
  c.register(DocumentLabelRepositoryToken, { useValue: new PgDocumentLabelRepository(pool) });
  c.register(AuditLogRepositoryToken, { useValue: new PgAuditLog(pool) });
  c.register(PluginJobRepositoryToken, { useValue: new PgPluginJobRepository(pool) });
  const vectors = new PgVectorRepositories(pool);
  const documents = new PgDocumentJobRepository(pool, { passagesDeleted: (ids) => vectors.deletePassages(ids) });
  c.register(DocumentJobRepositoryToken, { useValue: documents });
  c.register(PassageIndexRepositoryToken, { useValue: new PgPassageIndexRepository(pool) });
  c.register(DocumentOriginRepositoryToken, { useValue: new PgDocumentOriginRepository(pool) });
  const refused = new PgDeprecatedSyncDocumentReads();
  c.register(DocumentReadsNowToken, { useValue: refused });
  c.register(DocumentOriginsNowToken, { useValue: refused });
  c.register(VectorRepositoriesToken, { useValue: vectors });
  c.register(PgPluginSchemasToken, { useValue: new PgPluginSchemas(pool, url) });
}

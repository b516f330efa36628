import type { Logger as PinoLogger } from 'pino';
import {
  container as globalContainer,
  instanceCachingFactory,
  Lifecycle as Scope,
  type DependencyContainer,
} from 'tsyringe';
import type { Clock } from '@cerebro/sdk';
import { MemoisedAccessDirectory } from '../access/directory.js';
import { CredentialAuthenticator } from '../access/authenticator.js';
import { SpaceAccessRules } from '../access/space-access.js';
import { AdminService } from '../admin/admin-service.js';
import { InstalledModules, ModuleCatalogToken } from '../admin/module-catalog.js';
import type { HostConfig } from '../config/host-config.js';
import { CreditLedgerService } from '../credits/credit-ledger.js';
import { CreditLedgerRepositoryToken } from '../storage/port/credit-ledger-repository.js';
import { SqliteCreditLedgerRepository } from '../storage/sqlite/credit-ledger-repository.js';
import { RequestPipeline } from '../http/pipeline.js';
import { LeasedIdempotencyStore } from '../idempotency/idempotency-store.js';
import { StoredIdempotentRequests } from '../idempotency/idempotent-requests.js';
import { BusboyUploadReceiver } from '../http/uploads.js';
import { HostLifecycle } from '../kernel/lifecycle.js';
import { HostTokens } from '../kernel/tokens.js';
import { RequestWindowLimiter } from '../limits/rate-limiter.js';
import { InMemorySpaceGate } from '../limits/space-gate.js';
import { AccountStorageQuotas } from '../limits/storage-quotas.js';
import { BatchedUsageCounters } from '../limits/usage-counters.js';
import type { SqliteDatabase } from '../storage/database.js';
import { DocumentJobRepositoryToken, DocumentReadsNowToken } from '../storage/port/document-job-repository.js';
import { VectorRepositoriesToken } from '../storage/port/vector-repository.js';
import { PassageIndexRepositoryToken } from '../storage/port/passage-index-repository.js';
import { SqliteDocumentJobRepository } from '../storage/sqlite/document-job-repository.js';
import { SqlitePassageIndexRepository } from '../storage/sqlite/passage-index/passage-index-repository.js';
import { PluginJobRepositoryToken } from '../storage/port/plugin-job-repository.js';
import { SqlitePluginJobRepository } from '../storage/sqlite/plugin-job-repository.js';
import { SqliteVectorRepositories } from '../storage/sqlite/vector-repository.js';
import { DirectoryKeyIssuer } from '../access/key-issuer.js';
import { SpaceApiConfig } from '../access/space-api-config.js';
import { CreditPools } from '../credits/credit-pools.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { KeyService } from '../access/key-service.js';
import { PrometheusHostMetrics } from '../metrics/host-metrics.js';
import { ConsoleSessionService, MemberSessionService } from '../studio/console-sessions.js';
import { MemberAccountService } from '../members/member-accounts.js';
import { SpaceMembersService } from '../members/space-members.js';
import { InvitationLinks } from '../members/invitation-acceptance.js';
import { MemberKeyManagers } from '../members/member-keys.js';
import { OwnerLoginService } from '../studio/owner-logins.js';
import { OneTimeSignInLinks } from '../studio/sign-in-links.js';
import { OwnSpaceService } from '../studio/own-spaces.js';
import { registerAccessRepositories } from './access-repositories.js';
import type { SharedBackend } from './shared-backend.js';
import { ThrottledSignIn } from '../studio/sign-in.js';
import { WebhookTokens } from '../webhooks/webhook-tokens.js';
import { WebhookRepositoryToken } from '../storage/port/webhook-repository.js';
import { SqliteWebhookRepository } from '../storage/sqlite/webhook-repository.js';
import { MetricsRepositoryToken } from '../storage/port/metrics-repository.js';
import { SqliteMetricsRepository } from '../storage/sqlite/metrics-repository.js';
import { AnswerCacheRepositoryToken } from '../storage/port/answer-cache-repository.js';
import { SqliteAnswerCacheRepository } from '../storage/sqlite/answer-cache-repository.js';
import { ConversationRepositoryToken } from '../storage/port/conversation-repository.js';
import { SqliteConversationRepository } from '../storage/sqlite/conversation-repository.js';
import { RagSettingsRepositoryToken } from '../storage/port/rag-settings-repository.js';
import { SqliteRagSettingsRepository } from '../storage/sqlite/rag-settings-repository.js';
import { DocumentLabelRepositoryToken } from '../storage/port/document-label-repository.js';
import { SqliteDocumentLabelRepository } from '../storage/sqlite/document-label-repository.js';
import { DocumentOriginRepositoryToken, DocumentOriginsNowToken } from '../storage/port/document-origin-repository.js';
import { SqliteDocumentOriginRepository } from '../storage/sqlite/document-origin-repository.js';
import { OperatorDirectoryRepositoryToken } from '../storage/port/operator-directory-repository.js';
import { SqliteOperatorDirectoryRepository } from '../storage/sqlite/operator-directory-repository.js';
import { WebhookService } from '../webhooks/webhook-service.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { AuditLogRepositoryToken } from '../storage/port/audit-log-repository.js';
import { SqliteAuditLogRepository } from '../storage/sqlite/audit-log-repository.js';
import { StoredAuditTrail } from '../audit/audit-trail.js';
import { RouteAuditor } from '../audit/route-auditor.js';

/** What a host on PostgreSQL without a SQLite file gets for anything still reaching for one: a named failure. */
function noSqliteOnPostgres(): never {
  throw new Error(
    'Cerebro usa PostgreSQL (CEREBRO_DATABASE_URL) y esta parte intentó abrir la base de datos SQLite local: ningún dato se guarda ahí.',
  );
}

/**
 * The host's own container. A child of tsyringe's global container, which stays empty: plugin containers are
 * siblings, so nothing registered here is visible to a plugin.
 */
export function buildHostContainer(
  config: HostConfig,
  log: PinoLogger,
  /** Null on PostgreSQL where nothing may reach a SQLite file (`cerebro admin`): resolving it then throws. */
  db: SqliteDatabase | null,
  clock: Clock,
  /** With CEREBRO_DATABASE_URL: the access repositories are PostgreSQL's (and the counters Redis's, when set). */
  shared: SharedBackend | null = null,
): DependencyContainer {
  const c = globalContainer.createChildContainer();
  const singleton = { lifecycle: Scope.ContainerScoped };
  c.register(HostTokens.Config, { useValue: config });
  c.register(HostTokens.RootLogger, { useValue: log });
  if (db) c.register(HostTokens.Database, { useValue: db });
  else c.register(HostTokens.Database, { useFactory: noSqliteOnPostgres });
  c.register(HostTokens.Clock, { useValue: clock });
  c.register(HostTokens.Metrics, { useValue: new PrometheusHostMetrics() });
  if (!shared) registerAccessRepositories(c, db ?? noSqliteOnPostgres());
  c.register(HostTokens.Directory, { useClass: MemoisedAccessDirectory }, singleton);
  c.register(HostTokens.Sessions, { useClass: ConsoleSessionService }, singleton);
  c.register(HostTokens.MemberSessions, { useClass: MemberSessionService }, singleton);
  c.register(HostTokens.Logins, { useClass: OwnerLoginService }, singleton);
  c.register(HostTokens.SignInLinks, { useClass: OneTimeSignInLinks }, singleton);
  c.register(HostTokens.SignIn, { useClass: ThrottledSignIn }, singleton);
  c.register(HostTokens.Members, { useClass: SpaceMembersService }, singleton);
  c.register(HostTokens.MemberAccounts, { useClass: MemberAccountService }, singleton);
  c.register(HostTokens.Invitations, { useClass: InvitationLinks }, singleton);
  c.register(HostTokens.KeyManagers, { useClass: MemberKeyManagers }, singleton);
  c.register(HostTokens.KeyIssuer, { useClass: DirectoryKeyIssuer }, singleton);
  c.register(HostTokens.Authenticator, { useClass: CredentialAuthenticator }, singleton);
  c.register(HostTokens.SpacePolicy, { useClass: SpaceAccessRules }, singleton);
  c.register(HostTokens.RateLimiter, { useClass: RequestWindowLimiter }, singleton);
  c.register(HostTokens.Usage, { useClass: BatchedUsageCounters }, singleton);
  c.register(HostTokens.QuestionGate, {
    useValue: new InMemorySpaceGate({
      concurrency: config.questionsPerSpace,
      queue: config.questionQueuePerSpace,
      maxWaitMs: config.questionWaitMs,
    }),
  });
  c.register(HostTokens.Quotas, { useClass: AccountStorageQuotas }, singleton);
  c.register(CreditLedgerRepositoryToken, { useClass: SqliteCreditLedgerRepository }, singleton);
  c.register(HostTokens.Credits, { useClass: CreditLedgerService }, singleton);
  c.register(HostTokens.Lifecycle, { useClass: HostLifecycle }, singleton);
  c.register(HostTokens.Idempotency, { useClass: LeasedIdempotencyStore }, singleton);
  c.register(HostTokens.IdempotentRequests, { useClass: StoredIdempotentRequests }, singleton);
  c.register(HostTokens.Uploads, { useClass: BusboyUploadReceiver }, singleton);
  c.register(WebhookRepositoryToken, { useClass: SqliteWebhookRepository }, singleton);
  c.register(MetricsRepositoryToken, { useClass: SqliteMetricsRepository }, singleton);
  c.register(AnswerCacheRepositoryToken, { useClass: SqliteAnswerCacheRepository }, singleton);
  c.register(RagSettingsRepositoryToken, { useClass: SqliteRagSettingsRepository }, singleton);
  c.register(ConversationRepositoryToken, { useClass: SqliteConversationRepository }, singleton);
  c.register(DocumentLabelRepositoryToken, { useClass: SqliteDocumentLabelRepository }, singleton);
  c.register(OperatorDirectoryRepositoryToken, { useClass: SqliteOperatorDirectoryRepository }, singleton);
  c.register(DocumentOriginRepositoryToken, { useClass: SqliteDocumentOriginRepository }, singleton);
  // The same SQLite repository answers the deprecated synchronous reads of the sdk's `Documents.get`/`listOwn`.
  c.register(DocumentOriginsNowToken, { useToken: DocumentOriginRepositoryToken });
  c.register(WebhookTokens.Service, { useClass: WebhookService }, singleton);
  c.register(WebhookTokens.Dispatcher, { useClass: WebhookDispatcher }, singleton);
  c.register(DocumentJobRepositoryToken, { useClass: SqliteDocumentJobRepository }, singleton);
  // The same SQLite repository answers the sdk's deprecated synchronous reads (one set of prepared statements).
  c.register(DocumentReadsNowToken, { useToken: DocumentJobRepositoryToken });
  // The passage index runs questions' full-text matches on its own search threads, started when first resolved.
  c.register(PassageIndexRepositoryToken, {
    useFactory: instanceCachingFactory(
      () =>
        new SqlitePassageIndexRepository(db ?? noSqliteOnPostgres(), {
          threads: config.searchThreads,
          inlinePassages: config.searchInlinePassages,
        }),
    ),
  });
  c.register(PluginJobRepositoryToken, { useClass: SqlitePluginJobRepository }, singleton);
  c.register(VectorRepositoriesToken, { useClass: SqliteVectorRepositories }, singleton);
  c.register(AuditLogRepositoryToken, { useClass: SqliteAuditLogRepository }, singleton);
  // After every SQLite repository, so that on PostgreSQL its repositories replace them (the last registration of a
  // token is the one resolved).
  if (shared) shared.register(c);
  c.register(ModuleCatalogToken, { useValue: new InstalledModules() });
  c.register(HostRootTokens.Admin, { useClass: AdminService }, singleton);
  c.register(HostRootTokens.Keys, { useClass: KeyService }, singleton);
  c.register(HostTokens.Audit, { useClass: StoredAuditTrail }, singleton);
  c.register(HostTokens.RouteAuditor, { useClass: RouteAuditor }, singleton);
  c.register(HostRootTokens.Pipeline, { useClass: RequestPipeline }, singleton);
  c.register(HostRootTokens.ApiConfig, { useClass: SpaceApiConfig }, singleton);
  c.register(HostRootTokens.CreditPools, { useClass: CreditPools }, singleton);
  c.register(HostRootTokens.OwnSpaces, { useClass: OwnSpaceService }, singleton);
  return c;
}

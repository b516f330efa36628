import type { Logger as PinoLogger } from 'pino';
import { container as globalContainer, Lifecycle as Scope, type DependencyContainer } from 'tsyringe';
import type { Clock } from '@cerebro/sdk';
import { AccessDirectory } from '../access/directory.js';
import { Authenticator } from '../access/authenticator.js';
import { SpaceAccessPolicy } from '../access/space-access.js';
import { AdminService } from '../admin/admin-service.js';
import { ModuleCatalog, ModuleCatalogToken } from '../admin/module-catalog.js';
import type { HostConfig } from '../config/host-config.js';
import { CreditLedger } from '../credits/credit-ledger.js';
import { RequestPipeline } from '../http/pipeline.js';
import { IdempotencyStore } from '../idempotency/idempotency-store.js';
import { IdempotentRequests } from '../idempotency/idempotent-requests.js';
import { BusboyUploadReceiver } from '../http/uploads.js';
import { Lifecycle } from '../kernel/lifecycle.js';
import { HostTokens } from '../kernel/tokens.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { SpaceGate } from '../limits/space-gate.js';
import { StorageQuotas } from '../limits/storage-quotas.js';
import { UsageCounters } from '../limits/usage-counters.js';
import type { SqliteDatabase } from '../storage/database.js';
import { createToken } from '@cerebro/sdk';
import { AdminToken } from '../access/admin-token.js';
import { KeyService } from '../access/key-service.js';
import { HostMetrics } from '../metrics/host-metrics.js';
import { ConsoleSessions } from '../studio/console-sessions.js';
import { OwnerLogins } from '../studio/owner-logins.js';
import { SignInLinks } from '../studio/sign-in-links.js';
import { SignIn } from '../studio/sign-in.js';
import { WebhookTokens } from '../webhooks/webhook-tokens.js';
import { SqliteWebhookRepository } from '../webhooks/webhook-repository.js';
import { WebhookService } from '../webhooks/webhook-service.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';

/** Tokens of host classes that only the composition root resolves. */
export const HostRootTokens = {
  Admin: AdminToken,
  Keys: createToken<KeyService>('host:key-service'),
  Pipeline: createToken<RequestPipeline>('host:request-pipeline'),
};

/**
 * The host's own container. A child of tsyringe's global container, which stays empty: plugin containers are
 * siblings, so nothing registered here is visible to a plugin.
 */
export function buildHostContainer(
  config: HostConfig,
  log: PinoLogger,
  db: SqliteDatabase,
  clock: Clock,
): DependencyContainer {
  const c = globalContainer.createChildContainer();
  const singleton = { lifecycle: Scope.ContainerScoped };
  c.register(HostTokens.Config, { useValue: config });
  c.register(HostTokens.RootLogger, { useValue: log });
  c.register(HostTokens.Database, { useValue: db });
  c.register(HostTokens.Clock, { useValue: clock });
  c.register(HostTokens.Metrics, { useValue: new HostMetrics() });
  c.register(HostTokens.Directory, { useClass: AccessDirectory }, singleton);
  c.register(HostTokens.Sessions, { useClass: ConsoleSessions }, singleton);
  c.register(HostTokens.Logins, { useClass: OwnerLogins }, singleton);
  c.register(HostTokens.SignInLinks, { useClass: SignInLinks }, singleton);
  c.register(HostTokens.SignIn, { useClass: SignIn }, singleton);
  c.register(HostTokens.Authenticator, { useClass: Authenticator }, singleton);
  c.register(HostTokens.SpacePolicy, { useClass: SpaceAccessPolicy }, singleton);
  c.register(HostTokens.RateLimiter, { useClass: RateLimiter }, singleton);
  c.register(HostTokens.Usage, { useClass: UsageCounters }, singleton);
  c.register(HostTokens.QuestionGate, {
    useValue: new SpaceGate({
      concurrency: config.questionsPerSpace,
      queue: config.questionQueuePerSpace,
      maxWaitMs: config.questionWaitMs,
    }),
  });
  c.register(HostTokens.Quotas, { useClass: StorageQuotas }, singleton);
  c.register(HostTokens.Credits, { useClass: CreditLedger }, singleton);
  c.register(HostTokens.Lifecycle, { useClass: Lifecycle }, singleton);
  c.register(HostTokens.Idempotency, { useClass: IdempotencyStore }, singleton);
  c.register(HostTokens.IdempotentRequests, { useClass: IdempotentRequests }, singleton);
  c.register(HostTokens.Uploads, { useClass: BusboyUploadReceiver }, singleton);
  c.register(WebhookTokens.Repository, { useClass: SqliteWebhookRepository }, singleton);
  c.register(WebhookTokens.Service, { useClass: WebhookService }, singleton);
  c.register(WebhookTokens.Dispatcher, { useClass: WebhookDispatcher }, singleton);
  c.register(ModuleCatalogToken, { useValue: new ModuleCatalog() });
  c.register(HostRootTokens.Admin, { useClass: AdminService }, singleton);
  c.register(HostRootTokens.Keys, { useClass: KeyService }, singleton);
  c.register(HostRootTokens.Pipeline, { useClass: RequestPipeline }, singleton);
  return c;
}

import type { Logger as PinoLogger } from 'pino';
import { createToken, HostServices, type Token } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/directory.js';
import type { Authenticator } from '../access/authenticator.js';
import type { SpaceAccessPolicy } from '../access/space-access.js';
import type { HostConfig } from '../config/host-config.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { IdempotentRequests } from '../idempotency/idempotent-requests.js';
import type { CreditLedger } from '../credits/credit-ledger.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { UsageCounters } from '../limits/usage-counters.js';
import type { SpaceGate } from '../limits/space-gate.js';
import type { StorageQuotas } from '../limits/storage-quotas.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { HostMetrics } from '../metrics/host-metrics.js';
import type { Lifecycle } from './lifecycle.js';
import type { ConsoleSessions } from '../studio/console-sessions.js';
import type { OwnerLogins } from '../studio/owner-logins.js';
import type { SignInLinks } from '../studio/sign-in-links.js';
import type { SignIn } from '../studio/sign-in.js';

/** Tokens of the host's own container. Plugins never see this container; they get `HostServices` only. */
export const HostTokens = {
  Config: createToken<HostConfig>('host:host-config'),
  RootLogger: createToken<PinoLogger>('host:root-logger'),
  Database: createToken<SqliteDatabase>('host:database') as Token<SqliteDatabase>,
  Directory: createToken<AccessDirectory>('host:access-directory'),
  Authenticator: createToken<Authenticator>('host:authenticator'),
  SpacePolicy: createToken<SpaceAccessPolicy>('host:space-policy'),
  RateLimiter: createToken<RateLimiter>('host:rate-limiter'),
  Usage: createToken<UsageCounters>('host:usage-counters'),
  QuestionGate: createToken<SpaceGate>('host:question-gate'),
  Quotas: createToken<StorageQuotas>('host:storage-quotas'),
  Credits: createToken<CreditLedger>('host:credit-ledger'),
  Lifecycle: createToken<Lifecycle>('host:lifecycle'),
  Metrics: createToken<HostMetrics>('host:metrics'),
  Idempotency: createToken<IdempotencyStore>('host:idempotency-store'),
  IdempotentRequests: createToken<IdempotentRequests>('host:idempotent-requests'),
  Sessions: createToken<ConsoleSessions>('host:console-sessions'),
  Logins: createToken<OwnerLogins>('host:owner-logins'),
  SignInLinks: createToken<SignInLinks>('host:sign-in-links'),
  SignIn: createToken<SignIn>('host:sign-in'),
  Clock: HostServices.Clock,
  Uploads: HostServices.Uploads,
} as const;

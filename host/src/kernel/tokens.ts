import type { Logger as PinoLogger } from 'pino';
import { createToken, HostServices, type Token } from '@cerebro/sdk';
import type { AccessDirectory, Authenticator, KeyIssuer, SpaceAccessPolicy } from '../access/access-services.js';
import type { HostConfig } from '../config/host-config.js';
import type { IdempotencyStore, IdempotentRequests } from '../idempotency/idempotency-services.js';
import type { CreditLedger } from '../credits/credit-services.js';
import type { RateLimiter, SpaceGate, StorageQuotas, UsageCounters } from '../limits/limit-services.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { HostMetrics } from '../metrics/metrics-services.js';
import type { Lifecycle } from './kernel-services.js';
import type { ConsoleSessions, OwnerLogins, SignIn, SignInLinks } from '../studio/studio-services.js';
import type { AuditTrail, RouteAuditing } from '../audit/audit-services.js';
import type { Invitations, KeyManagers, MemberAccounts, SpaceMembers } from '../members/member-services.js';

/**
 * Tokens of the host's own container, typed by interfaces (as the sdk's `HostServices` are for plugins), never by
 * the classes that implement them: a service's module may import these tokens without an import circle. Plugins
 * never see this container; they get `HostServices` only.
 */
export const HostTokens = {
  Config: createToken<HostConfig>('host:host-config'),
  RootLogger: createToken<PinoLogger>('host:root-logger'),
  Database: createToken<SqliteDatabase>('host:database') as Token<SqliteDatabase>,
  Directory: createToken<AccessDirectory>('host:access-directory'),
  Authenticator: createToken<Authenticator>('host:authenticator'),
  KeyIssuer: createToken<KeyIssuer>('host:key-issuer'),
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
  /** Members' Studio sessions (`crm_`): the owners' session rules on the members' table. */
  MemberSessions: createToken<ConsoleSessions>('host:member-sessions'),
  Logins: createToken<OwnerLogins>('host:owner-logins'),
  SignInLinks: createToken<SignInLinks>('host:sign-in-links'),
  SignIn: createToken<SignIn>('host:sign-in'),
  Audit: createToken<AuditTrail>('host:audit-trail'),
  Members: createToken<SpaceMembers>('host:space-members'),
  /** A member's own name and password (their Studio profile). */
  MemberAccounts: createToken<MemberAccounts>('host:member-accounts'),
  Invitations: createToken<Invitations>('host:invitations'),
  KeyManagers: createToken<KeyManagers>('host:key-managers'),
  RouteAuditor: createToken<RouteAuditing>('host:route-auditor'),
  Clock: HostServices.Clock,
  Uploads: HostServices.Uploads,
} as const;

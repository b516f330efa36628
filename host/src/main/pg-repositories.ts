// The access repositories on PostgreSQL (CEREBRO_DATABASE_URL): what access-repositories.ts registers on SQLite,
// with the database's limit and sign-in counters (Redis replaces those two when configured: redis-counters.ts).
import type { DependencyContainer } from 'tsyringe';
import { Lifecycle as Scope } from 'tsyringe';
import { AdminViewRepositoryToken } from '../storage/port/admin-view-repository.js';
import { ChangeVersionRepositoryToken } from '../storage/port/change-version-repository.js';
import {
  ConsoleSessionRepositoryToken,
  MemberSessionRepositoryToken,
} from '../storage/port/console-session-repository.js';
import { MemberRepositoryToken } from '../storage/port/member-repository.js';
import { DirectoryRepositoryToken } from '../storage/port/directory-repository.js';
import { IdempotencyRepositoryToken } from '../storage/port/idempotency-repository.js';
import { KeyUsageRepositoryToken } from '../storage/port/key-usage-repository.js';
import { LimitWindowsRepositoryToken } from '../storage/port/limit-windows-repository.js';
import { OperatorDirectoryRepositoryToken } from '../storage/port/operator-directory-repository.js';
import { OwnerLoginRepositoryToken } from '../storage/port/owner-login-repository.js';
import { OwnerSpaceRepositoryToken } from '../storage/port/owner-space-repository.js';
import { ProcessLeaseRepositoryToken } from '../storage/port/process-lease-repository.js';
import { SignInFailureRepositoryToken } from '../storage/port/sign-in-failure-repository.js';
import { SignInLinkRepositoryToken } from '../storage/port/sign-in-link-repository.js';
import { StorageQuotaRepositoryToken } from '../storage/port/storage-quota-repository.js';
import { InlineOriginalRepositoryToken } from '../storage/port/inline-original-repository.js';
import { PgInlineOriginalRepository } from '../storage/postgres/pg-inline-originals.js';
import { PgAdminViewRepository } from '../storage/postgres/pg-admin-view-repository.js';
import { PgChangeVersionRepository } from '../storage/postgres/pg-change-version-repository.js';
import {
  PgConsoleSessionRepository,
  PgMemberSessionRepository,
} from '../storage/postgres/pg-console-session-repository.js';
import { PgMemberRepository } from '../storage/postgres/pg-member-repository.js';
import { PgDirectoryRepository } from '../storage/postgres/pg-directory-repository.js';
import type { Pool } from '../storage/postgres/pg-driver.js';
import { PgIdempotencyRepository } from '../storage/postgres/pg-idempotency-repository.js';
import { PgKeyUsageRepository } from '../storage/postgres/pg-key-usage-repository.js';
import { PgLimitWindows } from '../storage/postgres/pg-limit-windows.js';
import { PgOperatorDirectoryRepository } from '../storage/postgres/pg-operator-directory-repository.js';
import { PgOwnerLoginRepository } from '../storage/postgres/pg-owner-login-repository.js';
import { PgOwnerSpaceRepository } from '../storage/postgres/pg-owner-space-repository.js';
import { PgPoolToken } from '../storage/postgres/pg-pool-token.js';
import { PgProcessLeaseRepository } from '../storage/postgres/pg-process-lease-repository.js';
import { PgSignInFailures } from '../storage/postgres/pg-sign-in-failures.js';
import { PgSignInLinkRepository } from '../storage/postgres/pg-sign-in-link-repository.js';
import { PgStorageQuotaRepository } from '../storage/postgres/pg-storage-quota-repository.js';

/**
 * Registers the pool and the PostgreSQL repositories of the access concerns (directory, Studio's sessions, logins
 * and links, members, idempotency, change versions, process leases, key usage, storage quotas, the operator's listings
 * and writes, owners' own spaces, limit windows and failed sign-ins), one instance each. No synchronous space reader:
 * on PostgreSQL the sdk's deprecated synchronous reads throw, naming their asynchronous replacement (plugins/sync-reads.ts).
 */
export function registerPgAccessRepositories(c: DependencyContainer, pool: Pool): void {
  const singleton = { lifecycle: Scope.ContainerScoped };
  c.register(PgPoolToken, { useValue: pool });
  c.register(DirectoryRepositoryToken, { useClass: PgDirectoryRepository }, singleton);
  c.register(ChangeVersionRepositoryToken, { useClass: PgChangeVersionRepository }, singleton);
  c.register(ProcessLeaseRepositoryToken, { useClass: PgProcessLeaseRepository }, singleton);
  c.register(ConsoleSessionRepositoryToken, { useClass: PgConsoleSessionRepository }, singleton);
  c.register(MemberSessionRepositoryToken, { useClass: PgMemberSessionRepository }, singleton);
  c.register(MemberRepositoryToken, { useClass: PgMemberRepository }, singleton);
  c.register(OwnerLoginRepositoryToken, { useClass: PgOwnerLoginRepository }, singleton);
  c.register(SignInLinkRepositoryToken, { useClass: PgSignInLinkRepository }, singleton);
  c.register(IdempotencyRepositoryToken, { useClass: PgIdempotencyRepository }, singleton);
  c.register(KeyUsageRepositoryToken, { useClass: PgKeyUsageRepository }, singleton);
  c.register(StorageQuotaRepositoryToken, { useClass: PgStorageQuotaRepository }, singleton);
  c.register(InlineOriginalRepositoryToken, { useClass: PgInlineOriginalRepository }, singleton);
  c.register(AdminViewRepositoryToken, { useClass: PgAdminViewRepository }, singleton);
  c.register(OperatorDirectoryRepositoryToken, { useClass: PgOperatorDirectoryRepository }, singleton);
  c.register(OwnerSpaceRepositoryToken, { useClass: PgOwnerSpaceRepository }, singleton);
  c.register(LimitWindowsRepositoryToken, { useValue: new PgLimitWindows(pool) });
  c.register(SignInFailureRepositoryToken, { useValue: new PgSignInFailures(pool) });
}

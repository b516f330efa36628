import type { DependencyContainer } from 'tsyringe';
import { Lifecycle as Scope } from 'tsyringe';
import type { SqliteDatabase } from '../storage/database.js';
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
import { OwnerLoginRepositoryToken } from '../storage/port/owner-login-repository.js';
import { OwnerSpaceRepositoryToken } from '../storage/port/owner-space-repository.js';
import { ProcessLeaseRepositoryToken } from '../storage/port/process-lease-repository.js';
import { SignInFailureRepositoryToken } from '../storage/port/sign-in-failure-repository.js';
import { SignInLinkRepositoryToken } from '../storage/port/sign-in-link-repository.js';
import { StorageQuotaRepositoryToken } from '../storage/port/storage-quota-repository.js';
import { InlineOriginalRepositoryToken } from '../storage/port/inline-original-repository.js';
import { SqliteInlineOriginalRepository } from '../storage/sqlite/inline-original-repository.js';
import { SyncSpaceReaderToken } from '../storage/port/sync-space-reader.js';
import { SqliteAdminViewRepository } from '../storage/sqlite/admin-view-repository.js';
import { SqliteChangeVersionRepository } from '../storage/sqlite/change-version-repository.js';
import {
  SqliteConsoleSessionRepository,
  SqliteMemberSessionRepository,
} from '../storage/sqlite/console-session-repository.js';
import { SqliteMemberRepository } from '../storage/sqlite/member-repository.js';
import { SqliteDirectoryRepository } from '../storage/sqlite/directory-repository.js';
import { SqliteIdempotencyRepository } from '../storage/sqlite/idempotency-repository.js';
import { SqliteKeyUsageRepository } from '../storage/sqlite/key-usage-repository.js';
import { SqliteLimitWindowsRepository } from '../storage/sqlite/limit-windows-repository.js';
import { SqliteOwnerLoginRepository } from '../storage/sqlite/owner-login-repository.js';
import { SqliteOwnerSpaceRepository } from '../storage/sqlite/owner-space-repository.js';
import { SqliteProcessLeaseRepository } from '../storage/sqlite/process-lease-repository.js';
import { SqliteSignInFailureRepository } from '../storage/sqlite/sign-in-failure-repository.js';
import { SqliteSignInLinkRepository } from '../storage/sqlite/sign-in-link-repository.js';
import { SqliteStorageQuotaRepository } from '../storage/sqlite/storage-quota-repository.js';

/**
 * The SQLite repositories of the access concerns (directory, Studio's sessions and sign-in, members, idempotency,
 * change versions, process leases, limits, key usage, storage quotas, the operator's listings, owners' own spaces),
 * one instance each: the set pg-repositories.ts registers on PostgreSQL instead. The directory repository also serves the synchronous space
 * reader the sdk's synchronous services still need.
 */
export function registerAccessRepositories(c: DependencyContainer, db: SqliteDatabase): void {
  const singleton = { lifecycle: Scope.ContainerScoped };
  const directory = new SqliteDirectoryRepository(db);
  c.register(DirectoryRepositoryToken, { useValue: directory });
  c.register(SyncSpaceReaderToken, { useValue: directory });
  c.register(ChangeVersionRepositoryToken, { useClass: SqliteChangeVersionRepository }, singleton);
  c.register(ProcessLeaseRepositoryToken, { useClass: SqliteProcessLeaseRepository }, singleton);
  c.register(ConsoleSessionRepositoryToken, { useClass: SqliteConsoleSessionRepository }, singleton);
  c.register(MemberSessionRepositoryToken, { useClass: SqliteMemberSessionRepository }, singleton);
  c.register(MemberRepositoryToken, { useClass: SqliteMemberRepository }, singleton);
  c.register(OwnerLoginRepositoryToken, { useClass: SqliteOwnerLoginRepository }, singleton);
  c.register(SignInLinkRepositoryToken, { useClass: SqliteSignInLinkRepository }, singleton);
  c.register(SignInFailureRepositoryToken, { useClass: SqliteSignInFailureRepository }, singleton);
  c.register(IdempotencyRepositoryToken, { useClass: SqliteIdempotencyRepository }, singleton);
  c.register(LimitWindowsRepositoryToken, { useClass: SqliteLimitWindowsRepository }, singleton);
  c.register(KeyUsageRepositoryToken, { useClass: SqliteKeyUsageRepository }, singleton);
  c.register(StorageQuotaRepositoryToken, { useClass: SqliteStorageQuotaRepository }, singleton);
  c.register(InlineOriginalRepositoryToken, { useClass: SqliteInlineOriginalRepository }, singleton);
  c.register(AdminViewRepositoryToken, { useClass: SqliteAdminViewRepository }, singleton);
  c.register(OwnerSpaceRepositoryToken, { useClass: SqliteOwnerSpaceRepository }, singleton);
}

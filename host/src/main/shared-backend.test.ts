// Backend selection: CEREBRO_DATABASE_URL puts the host's repositories on PostgreSQL (and CEREBRO_REDIS_URL the
// counters on Redis), migrated once however many hosts start together, with the first run set up once.
import 'reflect-metadata';
import type { Token } from '@cerebro/sdk';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { loadHostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import { createRootLogger } from '../logging/logger.js';
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
import { ProcessLeaseRepositoryToken } from '../storage/port/process-lease-repository.js';
import { SignInFailureRepositoryToken } from '../storage/port/sign-in-failure-repository.js';
import { SignInLinkRepositoryToken } from '../storage/port/sign-in-link-repository.js';
import { StorageQuotaRepositoryToken } from '../storage/port/storage-quota-repository.js';
import { SyncSpaceReaderToken } from '../storage/port/sync-space-reader.js';
import { PG_HOST_MIGRATIONS } from '../storage/postgres/migrations/index.js';
import { PgAdminViewRepository } from '../storage/postgres/pg-admin-view-repository.js';
import { PgChangeVersionRepository } from '../storage/postgres/pg-change-version-repository.js';
import {
  PgConsoleSessionRepository,
  PgMemberSessionRepository,
} from '../storage/postgres/pg-console-session-repository.js';
import { PgMemberRepository } from '../storage/postgres/pg-member-repository.js';
import { PgDirectoryRepository } from '../storage/postgres/pg-directory-repository.js';
import { PgIdempotencyRepository } from '../storage/postgres/pg-idempotency-repository.js';
import { PgKeyUsageRepository } from '../storage/postgres/pg-key-usage-repository.js';
import { PgLimitWindows } from '../storage/postgres/pg-limit-windows.js';
import { PgOwnerLoginRepository } from '../storage/postgres/pg-owner-login-repository.js';
import { PgProcessLeaseRepository } from '../storage/postgres/pg-process-lease-repository.js';
import { PgSignInFailures } from '../storage/postgres/pg-sign-in-failures.js';
import { PgSignInLinkRepository } from '../storage/postgres/pg-sign-in-link-repository.js';
import { PgStorageQuotaRepository } from '../storage/postgres/pg-storage-quota-repository.js';
import { pgAccessFixture } from '../storage/postgres/testing/pg-access-fixture.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from '../storage/postgres/testing/pg-test-database.js';
import { RedisLimitWindows } from '../storage/redis/redis-limit-windows.js';
import { RedisSignInFailures } from '../storage/redis/redis-sign-in-failures.js';
import { redisUnavailable, TEST_REDIS_URL } from '../storage/redis/testing-redis.js';
import { openMigratedTestDatabase } from '../storage/sqlite/access-fixture.js';
import { buildHostContainer } from './host-container.js';
import { CreditLedgerRepositoryToken } from '../storage/port/credit-ledger-repository.js';
import { DocumentJobRepositoryToken } from '../storage/port/document-job-repository.js';
import { WebhookRepositoryToken } from '../storage/port/webhook-repository.js';
import { PgCreditLedgerRepository } from '../storage/postgres/pg-credit-ledger.js';
import { PgDocumentJobRepository } from '../storage/postgres/pg-document-jobs.js';
import { PgDocumentOriginRepository } from '../storage/postgres/pg-document-origins.js';
import { PgPassageIndexRepository } from '../storage/postgres/passage-index/pg-passage-index-repository.js';
import { PassageIndexRepositoryToken } from '../storage/port/passage-index-repository.js';
import { DocumentOriginRepositoryToken } from '../storage/port/document-origin-repository.js';
import { PgWebhookRepository } from '../storage/postgres/pg-webhooks.js';
import { AuditLogRepositoryToken } from '../storage/port/audit-log-repository.js';
import { PluginJobRepositoryToken } from '../storage/port/plugin-job-repository.js';
import { PgAuditLog } from '../storage/postgres/pg-audit-log.js';
import { PgPluginJobRepository } from '../storage/postgres/pg-plugin-jobs.js';
import { openSharedBackend, type SharedBackend } from './shared-backend.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { bootstrapFirstRun, FIRST_RUN_STEP } from '../bootstrap/first-run.js';
import { OperatorDirectoryRepositoryToken } from '../storage/port/operator-directory-repository.js';
import { PgOperatorDirectoryRepository } from '../storage/postgres/pg-operator-directory-repository.js';

const silent = createRootLogger('silent');
const clock = { now: () => Date.UTC(2026, 10, 27) };

const pgSkip = (await pgUnavailable()) ?? false;
const redisSkip = (await redisUnavailable()) ?? pgSkip;

/** Repositories the container resolves on PostgreSQL (every access one, and the content ones), and their classes. */
const PG_REPOSITORIES: [Token<object>, abstract new (...args: never[]) => object][] = [
  [DirectoryRepositoryToken, PgDirectoryRepository],
  [ChangeVersionRepositoryToken, PgChangeVersionRepository],
  [ProcessLeaseRepositoryToken, PgProcessLeaseRepository],
  [ConsoleSessionRepositoryToken, PgConsoleSessionRepository],
  [MemberSessionRepositoryToken, PgMemberSessionRepository],
  [MemberRepositoryToken, PgMemberRepository],
  [OwnerLoginRepositoryToken, PgOwnerLoginRepository],
  [SignInLinkRepositoryToken, PgSignInLinkRepository],
  [IdempotencyRepositoryToken, PgIdempotencyRepository],
  [KeyUsageRepositoryToken, PgKeyUsageRepository],
  [StorageQuotaRepositoryToken, PgStorageQuotaRepository],
  [AdminViewRepositoryToken, PgAdminViewRepository],
  [LimitWindowsRepositoryToken, PgLimitWindows],
  [SignInFailureRepositoryToken, PgSignInFailures],
  [CreditLedgerRepositoryToken, PgCreditLedgerRepository],
  [WebhookRepositoryToken, PgWebhookRepository],
  [DocumentJobRepositoryToken, PgDocumentJobRepository],
  [PassageIndexRepositoryToken, PgPassageIndexRepository],
  [DocumentOriginRepositoryToken, PgDocumentOriginRepository],
  [PluginJobRepositoryToken, PgPluginJobRepository],
  [AuditLogRepositoryToken, PgAuditLog],
  [OperatorDirectoryRepositoryToken, PgOperatorDirectoryRepository],
];

describe('hosts on one PostgreSQL database', { skip: pgSkip }, () => {
  let db: TestDatabase;
  const sqlite = openMigratedTestDatabase();
  const opened: SharedBackend[] = [];
  const open = async (redisUrl: string | null = null) => {
    const backend = await openSharedBackend({ databaseUrl: db.url, redisUrl }, silent);
    opened.push(backend);
    return backend;
  };
  before(async () => {
    db = await createTestDatabase(2);
  });
  after(async () => {
    for (const backend of opened) await backend.close();
    await db?.drop();
    await sqlite.close();
  });

  test('three hosts starting at once migrate the empty database once', async () => {
    await Promise.all([open(), open(), open()]);
    const ledger = await db.pool.query<{ n: number }>(
      "SELECT count(*) AS n FROM cerebro_migrations WHERE owner = 'host'",
    );
    assert.equal(ledger.rows[0]?.n, PG_HOST_MIGRATIONS.length);
  });

  test('the container resolves the PostgreSQL repositories, and the services above them work on the database', async () => {
    const backend = await open();
    const config = loadHostConfig({ CEREBRO_DATABASE_URL: db.url, CEREBRO_DATA_DIR: tmpdir() });
    const c = buildHostContainer(config, silent, sqlite.db, clock, backend);
    for (const [token, pgClass] of PG_REPOSITORIES) assert.ok(resolveToken(c, token) instanceof pgClass, pgClass.name);
    assert.equal(c.isRegistered(SyncSpaceReaderToken, true), false, 'nothing synchronous pretends to be shared');

    // What one host writes through its services, another host's repositories read from the database.
    const fixture = pgAccessFixture(db.pool);
    await fixture.owner({ id: 'own_a' });
    await fixture.account({ id: 'cta_a', ownerId: 'own_a', credits: 5 });
    await fixture.space({ id: 'tienda', ownerId: 'own_a', accountId: 'cta_a', modules: ['api'] });
    const space = await resolveToken(c, HostTokens.Directory).space('tienda');
    assert.deepEqual(space?.modules, ['api']);
    const scope = { caller: 'clave:k1', spaceId: 'tienda', route: 'POST /x', key: 'reintento-1' };
    assert.equal((await resolveToken(c, HostTokens.Idempotency).claim(scope, 'f1')).kind, 'run');
    const held = await db.pool.query("SELECT state FROM idempotency_keys WHERE idempotency_key = 'reintento-1'");
    assert.deepEqual(held.rows, [{ state: 'en_curso' }]);
    const other = buildHostContainer(config, silent, sqlite.db, clock, await open());
    await assert.rejects(
      resolveToken(other, HostTokens.Idempotency).claim(scope, 'f1'),
      /idempotency_in_flight|en curso/i,
      "another host sees the first one's hold",
    );
  });

  test('with CEREBRO_REDIS_URL the limit windows and failed sign-ins count in Redis', { skip: redisSkip }, async () => {
    const backend = await open(TEST_REDIS_URL);
    const config = loadHostConfig({ CEREBRO_DATABASE_URL: db.url, CEREBRO_DATA_DIR: tmpdir() });
    const c = buildHostContainer(config, silent, sqlite.db, clock, backend);
    assert.ok(resolveToken(c, LimitWindowsRepositoryToken) instanceof RedisLimitWindows);
    assert.ok(resolveToken(c, SignInFailureRepositoryToken) instanceof RedisSignInFailures);
    assert.ok(resolveToken(c, DirectoryRepositoryToken) instanceof PgDirectoryRepository);
  });

  test('hosts starting together set up the first run once, in one transaction under the lock', async () => {
    const fresh = await createTestDatabase(2);
    const config = loadHostConfig({ CEREBRO_DATABASE_URL: fresh.url, CEREBRO_DATA_DIR: tmpdir() });
    const backends: SharedBackend[] = [];
    try {
      for (let i = 0; i < 3; i++)
        backends.push(await openSharedBackend({ databaseUrl: fresh.url, redisUrl: null }, silent));
      const admins = backends.map((backend) =>
        resolveToken(buildHostContainer(config, silent, null, clock, backend), HostRootTokens.Admin),
      );
      // A step that fails half-way leaves nothing behind, and is run again by the next start.
      await assert.rejects(
        backends[0]!.once(FIRST_RUN_STEP, async () => {
          await bootstrapFirstRun(admins[0]!, []);
          throw new Error('caída a mitad');
        }),
        /caída a mitad/,
      );
      const count = async (table: string) =>
        (await fresh.pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n;
      assert.deepEqual(
        [await count('owners'), await count('operator_credentials'), await count('api_keys')],
        [0, 0, 0],
      );

      const runs = await Promise.all(
        backends.map((backend, i) => backend.once(FIRST_RUN_STEP, () => bootstrapFirstRun(admins[i]!, []))),
      );
      const done = runs.filter((run) => run !== null);
      assert.equal(done.length, 1, 'one host set it up');
      assert.equal(done[0]?.spaceId, 'demo');
      assert.deepEqual(
        [await count('owners'), await count('operator_credentials'), await count('api_keys')],
        [1, 1, 1],
      );
      const credits = await fresh.pool.query<{ credits: number }>('SELECT credits FROM accounts');
      assert.deepEqual(credits.rows, [{ credits: 1000 }]);
      // The key it printed works on another host.
      const keyId = /^crb_([0-9a-f]{16})\./.exec(done[0]!.key)?.[1];
      assert.ok(
        keyId &&
          (await resolveToken(
            buildHostContainer(config, silent, null, clock, backends[2]!),
            DirectoryRepositoryToken,
          ).key(keyId)),
      );
    } finally {
      for (const backend of backends) await backend.close();
      await fresh.drop();
    }
  });
});

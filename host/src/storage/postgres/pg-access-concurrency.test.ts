// The access repositories on PostgreSQL driven by several hosts at once (one pool each, one database): what SQLite's
// single writer gave for free must hold with concurrent transactions.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IdempotencyScope } from '../../idempotency/idempotency-services.js';
import type { MovementEntry } from '../port/credit-ledger-repository.js';
import type { AbandonedHolds, ClaimRequest } from '../port/idempotency-repository.js';
import type { KeyCallsDelta } from '../port/key-usage-repository.js';
import { PG_HOST_MIGRATIONS } from './migrations/index.js';
import { PgCreditLedgerRepository } from './pg-credit-ledger.js';
import { createPgPool, inTransaction, type Pool } from './pg-driver.js';
import { PgIdempotencyRepository } from './pg-idempotency-repository.js';
import { PgKeyUsageRepository } from './pg-key-usage-repository.js';
import { applyPgMigrations } from './pg-migrator.js';
import { pgAccessFixture } from './testing/pg-access-fixture.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from './testing/pg-test-database.js';

const HOSTS = 5;

/** A claim of `scope` by host `owner` at `now`, leased 30 s, purging nothing. */
const claimOf = (scope: IdempotencyScope, owner: string, now: number): ClaimRequest => ({
  scope,
  fingerprint: 'f1',
  now,
  owner,
  leaseUntil: now + 30_000,
  purgeBefore: 0,
});
/** A request's charge, as the pipeline debits it (the hold it pays for added per test). */
const consumo: MovementEntry = {
  reason: 'consumo',
  spaceId: 'tienda',
  route: 'POST /x',
  requestId: 'r1',
  at: '2026-03-01T00:00:00.000Z',
};
const skip = (await pgUnavailable()) ?? false;

describe('access repositories on PostgreSQL, several hosts at once', { skip }, () => {
  let db: TestDatabase;
  let pools: Pool[];
  before(async () => {
    db = await createTestDatabase(2);
    await applyPgMigrations(db.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
    pools = await Promise.all(Array.from({ length: HOSTS }, () => createPgPool(db.url, { max: 3 })));
    const fixture = pgAccessFixture(db.pool);
    await fixture.owner({ id: 'own_a' });
    await fixture.account({ id: 'cta_a', ownerId: 'own_a', credits: 100 });
    for (const key of ['k1', 'k2', 'k3'])
      await db.pool.query(
        "INSERT INTO api_keys (id, owner_id, name, permission, secret_digest, created_at) VALUES ($1, 'own_a', $1, 'lee', $2, '2026-01-01T00:00:00.000Z')",
        [key, Buffer.from([0])],
      );
  });
  after(async () => {
    await Promise.all((pools ?? []).map((p) => p.end()));
    await db?.drop();
  });

  test('key counters flushed by every host at once, over the same keys in different orders, all add up', async () => {
    const delta = (keyId: string, route: string, at: string): KeyCallsDelta => ({
      keyId,
      calls: 3,
      lastUsedAt: at,
      days: [
        {
          day: '2026-03-02',
          byRoute: new Map([
            [route, 2],
            ['GET /companies', 1],
          ]),
        },
      ],
    });
    await Promise.all(
      pools.flatMap((pool, h) =>
        Array.from({ length: 8 }, (_, i) => {
          const batch = [
            delta('k1', `GET /r${i % 3}`, `2026-03-02T10:0${h}:0${i}.000Z`),
            delta('k2', 'POST /x', '2026-03-02T09:00:00.000Z'),
            delta('k3', 'GET /y', '2026-03-02T08:00:00.000Z'),
          ];
          // Each host lists its keys in another order: the repository must still lock them in one.
          return new PgKeyUsageRepository(pool).addCalls(h % 2 ? batch.reverse() : batch);
        }),
      ),
    );
    const keys = await db.pool.query<{ id: string; calls: number; calls_by_route: string; last_used_at: string }>(
      'SELECT id, calls, calls_by_route, last_used_at FROM api_keys ORDER BY id',
    );
    const batches = HOSTS * 8;
    assert.deepEqual(
      keys.rows.map((k) => k.calls),
      [3 * batches, 3 * batches, 3 * batches],
    );
    const k1 = JSON.parse(keys.rows[0]!.calls_by_route) as Record<string, number>;
    assert.equal(k1['GET /companies'], batches);
    assert.equal((k1['GET /r0'] ?? 0) + (k1['GET /r1'] ?? 0) + (k1['GET /r2'] ?? 0), 2 * batches);
    assert.equal(keys.rows[0]!.last_used_at, '2026-03-02T10:04:07.000Z', 'the latest use of any host');
    const days = await new PgKeyUsageRepository(db.pool).daysFrom('k2', '2026-03-02');
    assert.deepEqual(days, [
      { day: '2026-03-02', route: 'GET /companies', calls: batches },
      { day: '2026-03-02', route: 'POST /x', calls: 2 * batches },
    ]);
  });

  test('an abandoned hold claimed by every host while another frees it: refunded exactly once, in the same commit', async () => {
    const scope = { caller: 'clave:k1', spaceId: 'tienda', route: 'POST /x', key: 'pedido-7' };
    const claim = (owner: string, now: number) => claimOf(scope, owner, now);
    /** A refund as a PostgreSQL ledger writes it: balance and movement in one transaction on the same pool. */
    const holdsOf = (pool: Pool, now: number): AbandonedHolds => ({
      abandoned: (hold) => (hold.leaseUntil ?? 0) <= now,
      refund: (charge) =>
        inTransaction(pool, async (client) => {
          const balance = await client.query<{ credits: number }>(
            'UPDATE accounts SET credits = credits + $1 WHERE id = $2 RETURNING credits',
            [charge.amount, charge.accountId],
          );
          await client.query(
            "INSERT INTO credit_movements (account_id, delta, balance_after, reason, space_id, route, created_at) VALUES ($1, $2, $3, 'reembolso', $4, $5, '2026-03-02T00:00:00.000Z')",
            [charge.accountId, charge.amount, balance.rows[0]!.credits, charge.spaceId, charge.route],
          );
        }),
    });
    const first = new PgIdempotencyRepository(pools[0]!);
    assert.equal((await first.claim(claim('muerto', 1_000), holdsOf(pools[0]!, 1_000))).kind, 'run');
    await new PgCreditLedgerRepository(pools[0]!).debit('cta_a', 7, { ...consumo, hold: scope });
    // The dead host's lease ran out at 31 000: every host retries it, and one of them frees dead holds at start-up.
    const later = 40_000;
    const results = await Promise.all([
      ...pools.map((pool, h) =>
        new PgIdempotencyRepository(pool).claim(claim(`vivo-${h}`, later), holdsOf(pool, later)),
      ),
      new PgIdempotencyRepository(pools[1]!).freeAbandoned('arranque', holdsOf(pools[1]!, later)),
    ]);
    const kinds = results.slice(0, HOSTS).map((r) => (r as { kind: string }).kind);
    assert.equal(kinds.filter((k) => k === 'run').length, 1, 'one retry runs');
    assert.equal(kinds.filter((k) => k === 'in_flight').length, HOSTS - 1);
    const refunds = await db.pool.query<{ delta: number }>(
      "SELECT delta FROM credit_movements WHERE reason = 'reembolso'",
    );
    assert.deepEqual(refunds.rows, [{ delta: 7 }], 'refunded once');
    const balance = await db.pool.query<{ credits: number }>("SELECT credits FROM accounts WHERE id = 'cta_a'");
    assert.equal(balance.rows[0]!.credits, 100, 'Σ movements = Δ balance: the charge came back, once');
  });

  test('a refund that fails rolls the takeover back: the hold stays for the next retry to refund', async () => {
    const scope = { caller: 'clave:k1', spaceId: 'tienda', route: 'POST /x', key: 'pedido-8' };
    const repo = new PgIdempotencyRepository(pools[2]!);
    const request = (owner: string, now: number) => claimOf(scope, owner, now);
    const refunds: number[] = [];
    const holds = (fail: boolean): AbandonedHolds => ({
      abandoned: (hold) => (hold.leaseUntil ?? 0) <= 50_000,
      refund: async (charge) => {
        if (fail) throw new Error('servidor caído');
        refunds.push(charge.amount);
      },
    });
    await repo.claim(request('muerto', 1_000), holds(false));
    await new PgCreditLedgerRepository(pools[2]!).debit('cta_a', 4, { ...consumo, hold: scope });
    await assert.rejects(repo.claim(request('vivo', 50_000), holds(true)), /servidor caído/);
    assert.equal((await repo.claim(request('vivo', 50_000), holds(false))).kind, 'run');
    assert.deepEqual(refunds, [4]);
  });
});

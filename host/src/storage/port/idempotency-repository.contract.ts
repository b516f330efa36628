import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IdempotencyScope } from '../../idempotency/idempotency-services.js';
import type { CreditLedgerRepository } from './credit-ledger-repository.js';
import type { AbandonedHolds, ClaimRequest, HeldCharge, IdempotencyRepository } from './idempotency-repository.js';

const scope = { caller: 'clave:k1', spaceId: 'demo', route: 'POST /x', key: 'clave-1' };
const claimAt = (now: number, owner = 'proc-a', fingerprint = 'f1'): ClaimRequest => ({
  scope,
  fingerprint,
  now,
  owner,
  leaseUntil: now + 1_000,
  purgeBefore: now - 10_000,
});

/** Holds are abandoned once their lease ran out at `now()`; refunds are recorded. */
function leaseRule(now: () => number): AbandonedHolds & { refunds: HeldCharge[] } {
  const refunds: HeldCharge[] = [];
  return {
    refunds,
    abandoned: (hold) => (hold.leaseUntil ?? 0) <= now(),
    refund: (charge) => refunds.push(charge),
  };
}

/** The repository under test and the same storage's credit ledger, whose debits pay for held keys. */
export interface IdempotencyFixture {
  repo: IdempotencyRepository;
  ledger: CreditLedgerRepository;
  /** Creates an account holding `credits`; returns its id. */
  openAccount(credits: number): Promise<string>;
  close(): Promise<void>;
}

/** A request's charge as the pipeline makes it for a held key: one debit that records itself on the hold. */
const payFor = (ledger: CreditLedgerRepository, hold: IdempotencyScope, account: string, amount: number) =>
  ledger.debit(account, amount, {
    reason: 'consumo',
    spaceId: hold.spaceId,
    route: hold.route,
    requestId: 'r1',
    at: '2026-03-01T10:00:00.000Z',
    hold,
  });

/** The behaviour every idempotency backend must show (run per backend by its own test file). */
export function idempotencyRepositoryContract(name: string, make: () => Promise<IdempotencyFixture>): void {
  test(`${name}: the first claim runs; while held, the same body is in flight and another body a reuse`, async () => {
    const { repo, close } = await make();
    try {
      const holds = leaseRule(() => 0);
      assert.deepEqual(await repo.claim(claimAt(100), holds), { kind: 'run' });
      assert.deepEqual(await repo.claim(claimAt(200, 'proc-b'), holds), { kind: 'in_flight' });
      assert.deepEqual(await repo.claim(claimAt(200, 'proc-b', 'f2'), holds), { kind: 'reused' });
      const other = { ...claimAt(200), scope: { ...scope, route: 'POST /y' } };
      assert.deepEqual(await repo.claim(other, holds), { kind: 'run' }, 'a key is scoped by route');
    } finally {
      await close();
    }
  });

  test(`${name}: a completed key replays its answer until the TTL purges it; a released key runs again`, async () => {
    const { repo, close } = await make();
    try {
      const holds = leaseRule(() => 0);
      await repo.claim(claimAt(100), holds);
      const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };
      await repo.complete(scope, answer);
      assert.deepEqual(await repo.claim(claimAt(200), holds), { kind: 'replay', answer });
      assert.deepEqual(await repo.claim(claimAt(200, 'proc-a', 'f2'), holds), { kind: 'reused' });
      assert.deepEqual(await repo.claim(claimAt(10_100), holds), { kind: 'run' }, 'created at or before purgeBefore');
      await repo.release(scope);
      assert.deepEqual(await repo.claim(claimAt(10_200), holds), { kind: 'run' });
    } finally {
      await close();
    }
  });

  test(`${name}: an abandoned hold is taken over and what it charged is refunded exactly once`, async () => {
    const { repo, ledger, openAccount, close } = await make();
    try {
      let now = 100;
      const holds = leaseRule(() => now);
      await repo.claim(claimAt(100), holds);
      const account = await openAccount(10);
      await payFor(ledger, scope, account, 7);
      now = 600;
      assert.deepEqual(await repo.claim(claimAt(600, 'proc-b'), holds), { kind: 'in_flight' }, 'within its lease');
      now = 1_100;
      assert.deepEqual(await repo.claim(claimAt(1_100, 'proc-b'), holds), { kind: 'run' });
      assert.deepEqual(holds.refunds, [{ accountId: account, amount: 7, spaceId: 'demo', route: 'POST /x' }]);
      now = 1_150;
      assert.deepEqual(await repo.claim(claimAt(1_150, 'proc-c'), holds), { kind: 'in_flight' }, 'now proc-b holds it');
      assert.equal(holds.refunds.length, 1, 'the new hold has charged nothing');
    } finally {
      await close();
    }
  });

  test(`${name}: renewing keeps a hold alive; freeing takes only other owners' abandoned holds`, async () => {
    const { repo, ledger, openAccount, close } = await make();
    try {
      let now = 100;
      const holds = leaseRule(() => now);
      await repo.claim(claimAt(100, 'proc-a'), holds);
      const account = await openAccount(10);
      await payFor(ledger, scope, account, 3);
      const mine = { ...scope, key: 'clave-2' };
      await repo.claim({ ...claimAt(100, 'proc-b'), scope: mine }, holds);
      await repo.renew('proc-a', 5_000);
      now = 2_000;
      assert.equal(
        await repo.freeAbandoned('proc-b', holds),
        0,
        "proc-a's renewed hold is alive; proc-b's own skipped",
      );
      now = 6_000;
      assert.equal(await repo.freeAbandoned('proc-b', holds), 1);
      assert.deepEqual(holds.refunds, [{ accountId: account, amount: 3, spaceId: 'demo', route: 'POST /x' }]);
      assert.deepEqual(await repo.claim(claimAt(6_000, 'proc-c'), holds), { kind: 'run' }, 'the freed key runs');
      assert.equal(holds.refunds.length, 1, 'and is not refunded twice');
    } finally {
      await close();
    }
  });

  test(`${name}: a refused debit leaves its hold uncharged; a debit marks only its own hold`, async () => {
    const { repo, ledger, openAccount, close } = await make();
    try {
      let now = 100;
      const holds = leaseRule(() => now);
      const other = { ...scope, key: 'clave-3' };
      await repo.claim(claimAt(100), holds);
      await repo.claim({ ...claimAt(100), scope: other }, holds);
      const account = await openAccount(5);
      assert.equal(await payFor(ledger, scope, account, 9), null, 'the balance does not cover it');
      assert.equal(await payFor(ledger, other, account, 2), 3);
      now = 2_000;
      assert.equal(await repo.freeAbandoned('proc-b', holds), 2);
      assert.deepEqual(holds.refunds, [{ accountId: account, amount: 2, spaceId: 'demo', route: 'POST /x' }]);
    } finally {
      await close();
    }
  });

  test(`${name}: the refund of a failed held request clears its charge: a takeover gives back nothing more`, async () => {
    const { repo, ledger, openAccount, close } = await make();
    try {
      let now = 100;
      const holds = leaseRule(() => now);
      await repo.claim(claimAt(100), holds);
      const account = await openAccount(10);
      await payFor(ledger, scope, account, 4);
      const refund = { reason: 'reembolso' as const, spaceId: 'demo', route: 'POST /x', requestId: 'r1', at: 'x' };
      assert.equal(await ledger.credit(account, 4, { ...refund, hold: scope }), 10);
      // Its process dies before it frees the key: the next claim takes the hold over and owes nothing.
      now = 2_000;
      assert.deepEqual(await repo.claim(claimAt(2_000, 'proc-b'), holds), { kind: 'run' });
      assert.deepEqual(holds.refunds, [], 'refunded once, by the failure');
    } finally {
      await close();
    }
  });

  test(`${name}: of claims started together exactly one runs`, async () => {
    const { repo, close } = await make();
    try {
      const holds = leaseRule(() => 0);
      const claims = await Promise.all(['a', 'b', 'c', 'd'].map((p) => repo.claim(claimAt(100, `proc-${p}`), holds)));
      assert.equal(claims.filter((c) => c.kind === 'run').length, 1);
      assert.equal(claims.filter((c) => c.kind === 'in_flight').length, 3);
    } finally {
      await close();
    }
  });
}

import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import type { CreditLedgerRepository, MovementEntry } from './credit-ledger-repository.js';

/** A ledger under test, a second handle on the same storage (another process's), and a way to open accounts. */
export interface CreditLedgerFixture {
  repo: CreditLedgerRepository;
  other: CreditLedgerRepository;
  /** Creates an account (and its owner) holding `credits`; returns its id. */
  openAccount(credits: number): Promise<string>;
  close(): Promise<void>;
}

const AT = '2026-03-01T10:00:00.000Z';
const consumo = (requestId: string | null, route: string | null = null): MovementEntry => ({
  reason: 'consumo',
  spaceId: 'esp',
  route,
  requestId,
  at: AT,
});

/** Σ of an account's movements, which must always equal the change of its balance. */
async function movedSum(repo: CreditLedgerRepository, account: string): Promise<number> {
  return (await repo.recent(account, 10_000)).reduce((n, m) => n + m.delta, 0);
}

/** The behaviour every credit ledger repository must have, whatever its database. */
export function creditLedgerRepositoryContract(name: string, make: () => Promise<CreditLedgerFixture>): void {
  const withLedger = contractCase(name, make);

  withLedger(
    'a debit moves the balance and records the movement with its balance after',
    async ({ repo, openAccount }) => {
      const account = await openAccount(10);
      assert.equal(await repo.debit(account, 3, consumo('r1', 'POST /preguntar')), 7);
      assert.equal(await repo.balance(account), 7);
      const [movement] = await repo.recent(account, 5);
      assert.deepEqual(
        { ...movement, id: undefined },
        {
          id: undefined,
          delta: -3,
          balanceAfter: 7,
          reason: 'consumo',
          spaceId: 'esp',
          route: 'POST /preguntar',
          createdAt: AT,
        },
      );
    },
  );

  withLedger('a debit the balance does not cover changes nothing', async ({ repo, openAccount }) => {
    const account = await openAccount(2);
    assert.equal(await repo.debit(account, 3, consumo('r1')), null);
    assert.equal(await repo.debit('no-existe', 1, consumo('r2')), null);
    assert.equal(await repo.balance(account), 2);
    assert.deepEqual(await repo.recent(account, 5), []);
    assert.equal(await repo.debit(account, 2, consumo('r3')), 0, 'the whole balance can be spent');
  });

  withLedger('a credit adds and records; an unknown account is refused', async ({ repo, openAccount }) => {
    const account = await openAccount(0);
    const entry: MovementEntry = { reason: 'recarga', spaceId: null, route: null, requestId: null, at: AT };
    assert.equal(await repo.credit(account, 5, entry), 5);
    assert.equal(await repo.credit('no-existe', 5, entry), null);
    assert.equal(await repo.balance('no-existe'), null);
    assert.equal((await repo.recent(account, 1))[0]?.reason, 'recarga');
  });

  withLedger('concurrent debits from two handles never overdraw, and Σ movements = Δ balance', async (f) => {
    const account = await f.openAccount(10);
    const debits = Array.from({ length: 30 }, (_, i) => (i % 2 ? f.other : f.repo).debit(account, 1, consumo(`r${i}`)));
    const balances = await Promise.all(debits);
    const taken = balances.filter((b) => b !== null);
    assert.equal(taken.length, 10, 'exactly the balance was taken');
    assert.deepEqual(
      [...taken].sort((a, b) => a - b),
      Array.from({ length: 10 }, (_, i) => i),
      'each debit saw its own balance',
    );
    assert.equal(await f.repo.balance(account), 0);
    assert.equal(await movedSum(f.repo, account), -10);
  });

  withLedger('recent lists the newest first, up to the limit', async ({ repo, openAccount }) => {
    const account = await openAccount(10);
    for (const n of [1, 2, 3]) await repo.debit(account, n, consumo(`r${n}`));
    const recent = await repo.recent(account, 2);
    assert.deepEqual(
      recent.map((m) => [m.delta, m.balanceAfter]),
      [
        [-3, 4],
        [-2, 7],
      ],
    );
    assert.deepEqual(await repo.recent(await openAccount(1), 5), [], "another account's movements are not listed");
    // Paging back from the oldest one shown: the movement before it, then nothing.
    const older = await repo.recent(account, 5, recent[1]!.id);
    assert.deepEqual(
      older.map((m) => [m.delta, m.balanceAfter]),
      [[-1, 9]],
    );
    assert.deepEqual(await repo.recent(account, 5, older[0]!.id), []);
  });

  withLedger("a request's refund gives back its charge on the routes asked for, once", async (f) => {
    const account = await f.openAccount(10);
    const route = 'POST /mod/biblioteca/esp/pagar';
    await f.repo.debit(account, 3, consumo('pedido', route));
    await f.repo.debit(account, 2, consumo('ajeno', 'POST /mod/otra/esp/pagar'));
    const at = { spaceId: 'esp', at: AT };
    assert.deepEqual(await f.repo.refundRequest(account, 'pedido', ' /mod/otra/', at), { refunded: 0, balance: null });
    assert.deepEqual(await f.repo.refundRequest(account, 'pedido', ' /mod/biblioteca/', at), {
      refunded: 3,
      balance: 8,
    });
    assert.equal((await f.other.refundRequest(account, 'pedido', ' /mod/biblioteca/', at)).refunded, 0, 'only once');
    assert.equal((await f.repo.refundRequest(account, 'no-existe', ' /mod/biblioteca/', at)).refunded, 0);
    const [refund] = await f.repo.recent(account, 1);
    assert.deepEqual([refund?.reason, refund?.route, refund?.delta], ['reembolso', route, 3]);
    assert.equal(await f.repo.balance(account), 8);
    assert.equal(await movedSum(f.repo, account), -2);
  });

  withLedger('a refund already given by the pipeline is not given again', async ({ repo, openAccount }) => {
    const account = await openAccount(10);
    const route = 'POST /mod/biblioteca/esp/pagar';
    await repo.debit(account, 4, consumo('pedido', route));
    await repo.credit(account, 4, { reason: 'reembolso', spaceId: 'esp', route, requestId: 'pedido', at: AT });
    assert.equal(
      (await repo.refundRequest(account, 'pedido', ' /mod/biblioteca/', { spaceId: 'esp', at: AT })).refunded,
      0,
    );
    assert.equal(await repo.balance(account), 10);
  });

  withLedger('concurrent refunds of one request from two handles give it back once', async (f) => {
    const account = await f.openAccount(10);
    await f.repo.debit(account, 5, consumo('pedido', 'POST /mod/biblioteca/esp/pagar'));
    const at = { spaceId: 'esp', at: AT };
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? f.other : f.repo).refundRequest(account, 'pedido', ' /mod/biblioteca/', at),
      ),
    );
    assert.equal(
      results.reduce((n, r) => n + r.refunded, 0),
      5,
    );
    assert.equal(await f.repo.balance(account), 10);
    assert.equal(await movedSum(f.repo, account), 0);
  });
}

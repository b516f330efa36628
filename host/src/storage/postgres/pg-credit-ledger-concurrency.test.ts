// Money across hosts: four pools on one database (four hosts' worth of connections) debit, top up and refund one
// account at once. Whatever the interleaving, no debit overdraws, a request is refunded once, and the account's
// movements add up to the change of its balance.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { MovementEntry } from '../port/credit-ledger-repository.js';
import { PgCreditLedgerRepository } from './pg-credit-ledger.js';
import { dropMigratedTemplate, migratedPgDatabase, seedPgAccount } from './testing/migrated-pg-database.js';
import { pgUnavailable } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;
after(dropMigratedTemplate);

const AT = '2026-03-01T10:00:00.000Z';
const ROUTE = 'POST /mod/biblioteca/esp/pagar';
const entry = (reason: MovementEntry['reason'], requestId: string | null): MovementEntry => ({
  reason,
  spaceId: 'esp',
  route: reason === 'consumo' ? ROUTE : null,
  requestId,
  at: AT,
});

describe('PostgreSQL credit ledger under concurrent hosts', { skip }, () => {
  test('480 debits, top-ups and refunds from four pools: never below zero, each refund once, Σ = Δ', async (t) => {
    const db = await migratedPgDatabase(4);
    t.after(db.close);
    const hosts = [
      new PgCreditLedgerRepository(db.pool),
      ...(await Promise.all([1, 2, 3].map(async () => new PgCreditLedgerRepository(await db.connect())))),
    ];
    const START = 400;
    const account = await seedPgAccount(db.pool, START);
    const at = { spaceId: 'esp', at: AT };
    // First debits and top-ups at once (more debits than the balance covers), then refunds of the charged requests,
    // each asked by two hosts at once, while more debits arrive.
    const first = await Promise.all(
      Array.from({ length: 300 }, (_, i) => {
        const host = hosts[i % hosts.length]!;
        return i % 10 === 3
          ? host.credit(account, 2, entry('recarga', null))
          : host.debit(account, 3, entry('consumo', `r${i}`));
      }),
    );
    const charged = first.flatMap((b, i) => (i % 10 !== 3 && b !== null ? [`r${i}`] : [])).slice(0, 40);
    const second = await Promise.all([
      ...charged.flatMap((request, i) => [
        hosts[i % 4]!.refundRequest(account, request, ' /mod/biblioteca/', at),
        hosts[(i + 1) % 4]!.refundRequest(account, request, ' /mod/biblioteca/', at),
      ]),
      ...Array.from({ length: 100 }, (_, i) => hosts[i % 4]!.debit(account, 3, entry('consumo', `s${i}`))),
    ]);
    const balances = [...first, ...second.map((r) => (typeof r === 'object' && r !== null ? r.balance : r))].filter(
      (b): b is number => b !== null,
    );
    assert.ok(
      balances.every((b) => b >= 0),
      'no balance after a movement is negative',
    );
    const balance = (await hosts[0]!.balance(account))!;
    const movements = await hosts[1]!.recent(account, 10_000);
    assert.equal(
      movements.reduce((n, m) => n + m.delta, 0),
      balance - START,
      'Σ movements = Δ balance',
    );
    const refunds = await db.pool.query<{ request_id: string; n: number; charged: number }>(
      `SELECT r.request_id, count(*) AS n,
         (SELECT -sum(c.delta) FROM credit_movements c WHERE c.request_id = r.request_id AND c.reason = 'consumo') AS charged
       FROM credit_movements r WHERE r.reason = 'reembolso' GROUP BY r.request_id`,
    );
    assert.ok(refunds.rowCount! > 0, 'some charged requests were refunded');
    assert.deepEqual(
      refunds.rows.filter((r) => r.n !== 1 || r.charged !== 3),
      [],
      'each refunded request once, and only a charged one',
    );
    // Every movement's recorded balance is what its predecessor left plus its own delta: one serial history.
    const chronological = [...movements].reverse();
    let running = START;
    for (const m of chronological) {
      running += m.delta;
      assert.equal(m.balanceAfter, running, `movement ${m.id}`);
    }
  });
});

import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type {
  CreditLedgerRepository,
  MovementEntry,
  MovementRecord,
  RequestRefund,
} from '../port/credit-ledger-repository.js';
import { owedRefund } from '../port/request-refund.js';
import { preparedOnUse } from './prepared-on-use.js';

/** The credit ledger over the host's `accounts.credits` and `credit_movements` (migration 0001_core). */
@injectable()
export class SqliteCreditLedgerRepository implements CreditLedgerRepository {
  private readonly s;
  private readonly debitTx;
  private readonly creditTx;
  private readonly refundTx;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.s = preparedOnUse({
      // The condition in the UPDATE is what keeps concurrent debits from overdrawing: no read-then-write.
      debit: () =>
        db.prepare<[number, string, number], { credits: number }>(
          'UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ? RETURNING credits',
        ),
      credit: () =>
        db.prepare<[number, string], { credits: number }>(
          'UPDATE accounts SET credits = credits + ? WHERE id = ? RETURNING credits',
        ),
      record: () =>
        db.prepare<[string, number, number, string, string | null, string | null, string | null, string]>(
          'INSERT INTO credit_movements (account_id, delta, balance_after, reason, space_id, route, request_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        ),
      recent: () =>
        db.prepare<
          [string, number, number],
          {
            id: number;
            delta: number;
            balance_after: number;
            reason: string;
            space_id: string | null;
            route: string | null;
            created_at: string;
          }
        >(
          'SELECT id, delta, balance_after, reason, space_id, route, created_at FROM credit_movements WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
        ),
      balance: () => db.prepare<[string], { credits: number }>('SELECT credits FROM accounts WHERE id = ?'),
      // What pays a held `Idempotency-Key` is written on its hold (see MovementEntry.hold).
      chargeHold: () =>
        db.prepare<[string, number, string, string, string, string]>(
          `UPDATE idempotency_keys SET charged_account = ?, charged_amount = ?
         WHERE caller = ? AND space_id = ? AND route = ? AND idempotency_key = ? AND state = 'en_curso'`,
        ),
      // A refund of what a held key paid takes the charge off its hold (see MovementEntry.hold).
      refundHold: () =>
        db.prepare<[string, string, string, string]>(
          `UPDATE idempotency_keys SET charged_account = NULL, charged_amount = NULL
         WHERE caller = ? AND space_id = ? AND route = ? AND idempotency_key = ? AND state = 'en_curso'`,
        ),
      ofRequest: () =>
        db.prepare<[string, string], { delta: number; reason: string; route: string | null }>(
          'SELECT delta, reason, route FROM credit_movements WHERE account_id = ? AND request_id = ?',
        ),
    });
    const move = (accountId: string, delta: number, balance: number, e: MovementEntry): number => {
      this.s.record.run(accountId, delta, balance, e.reason, e.spaceId, e.route, e.requestId, e.at);
      return balance;
    };
    this.debitTx = db.transaction((accountId: string, amount: number, e: MovementEntry): number | null => {
      const row = this.s.debit.get(amount, accountId, amount);
      if (!row) return null;
      if (e.hold) this.s.chargeHold.run(accountId, amount, e.hold.caller, e.hold.spaceId, e.hold.route, e.hold.key);
      return move(accountId, -amount, row.credits, e);
    });
    this.creditTx = db.transaction((accountId: string, amount: number, e: MovementEntry): number | null => {
      const row = this.s.credit.get(amount, accountId);
      if (!row) return null;
      if (e.hold) this.s.refundHold.run(e.hold.caller, e.hold.spaceId, e.hold.route, e.hold.key);
      return move(accountId, amount, row.credits, e);
    });
    this.refundTx = db.transaction(
      (accountId: string, requestId: string, fragment: string, e: { spaceId: string | null; at: string }) => {
        const { owed, route } = owedRefund(this.s.ofRequest.all(accountId, requestId), fragment);
        if (owed <= 0) return { refunded: 0, balance: null };
        // inside the transaction of refundTx, which took the write lock
        const balance = this.creditTx(accountId, owed, {
          reason: 'reembolso',
          spaceId: e.spaceId,
          route,
          requestId,
          at: e.at,
        });
        return { refunded: balance === null ? 0 : owed, balance };
      },
    );
  }

  async debit(accountId: string, amount: number, entry: MovementEntry): Promise<number | null> {
    return this.debitTx.immediate(accountId, amount, entry);
  }

  async credit(accountId: string, amount: number, entry: MovementEntry): Promise<number | null> {
    return this.creditTx.immediate(accountId, amount, entry);
  }

  async refundRequest(
    accountId: string,
    requestId: string,
    routeFragment: string,
    entry: { spaceId: string | null; at: string },
  ): Promise<RequestRefund> {
    // IMMEDIATE: it reads before it writes, and another process's refund of the same request must wait, not race.
    return this.refundTx.immediate(accountId, requestId, routeFragment, entry);
  }

  async balance(accountId: string): Promise<number | null> {
    return this.s.balance.get(accountId)?.credits ?? null;
  }

  async recent(accountId: string, limit: number, beforeId = Number.MAX_SAFE_INTEGER): Promise<MovementRecord[]> {
    return this.s.recent.all(accountId, beforeId, limit).map((m) => ({
      id: m.id,
      delta: m.delta,
      balanceAfter: m.balance_after,
      reason: m.reason,
      spaceId: m.space_id,
      route: m.route,
      createdAt: m.created_at,
    }));
  }
}

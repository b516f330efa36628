import { inject, injectable } from 'tsyringe';
import type { Clock } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import { apiError } from '@cerebro/sdk';
import type { HostMetrics } from '../metrics/metrics-services.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { ChargeContext, CreditLedger, Movement } from './credit-services.js';

/**
 * The credit pool (`bolsa`) of accounts. Every change is one transaction that moves the balance and records the
 * movement, and a debit never takes the balance below zero.
 */
@injectable()
export class SqliteCreditLedger implements CreditLedger {
  private readonly stmts;
  private readonly debitListeners: ((accountId: string, before: number, after: number) => void)[] = [];
  private readonly refusalListeners: ((accountId: string, balance: number) => void)[] = [];

  constructor(
    @inject(HostTokens.Database) private readonly db: SqliteDatabase,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Metrics) private readonly metrics: HostMetrics,
  ) {
    this.stmts = {
      debit: db.prepare<[number, string, number], { credits: number }>(
        'UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ? RETURNING credits',
      ),
      balance: db.prepare<[string], number>('SELECT credits FROM accounts WHERE id = ?').pluck(),
      credit: db.prepare<[number, string], { credits: number }>(
        'UPDATE accounts SET credits = credits + ? WHERE id = ? RETURNING credits',
      ),
      record: db.prepare(
        'INSERT INTO credit_movements (account_id, delta, balance_after, reason, space_id, route, request_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      recent: db.prepare<
        [string, number],
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
        'SELECT id, delta, balance_after, reason, space_id, route, created_at FROM credit_movements WHERE account_id = ? ORDER BY id DESC LIMIT ?',
      ),
    };
  }

  /**
   * Called after every debit with the balance before and after it (webhooks' `creditos.bajos` / `creditos.agotados`).
   * A listener that throws is logged by its owner, never fails the debit.
   */
  onDebit(listener: (accountId: string, before: number, after: number) => void): void {
    this.debitListeners.push(listener);
  }

  /**
   * Called when a debit is refused for lack of credits, with the balance that could not pay (webhooks'
   * `creditos.agotados`: a balance above zero can still be exhausted for a request that costs more).
   */
  onRefused(listener: (accountId: string, balance: number) => void): void {
    this.refusalListeners.push(listener);
  }

  /** Takes `amount` credits or throws 402 `credits_exhausted` without touching the balance. */
  debit(accountId: string, amount: number, ctx: ChargeContext, reason: 'consumo' | 'ajuste' = 'consumo'): number {
    const balance = this.db.transaction(() => {
      const row = this.stmts.debit.get(amount, accountId, amount);
      if (!row) return null;
      this.stmts.record.run(
        accountId,
        -amount,
        row.credits,
        reason,
        ctx.spaceId,
        ctx.route,
        ctx.requestId,
        new Date(this.clock.now()).toISOString(),
      );
      return row.credits;
    })();
    if (balance === null) {
      // Told after the transaction, so what the listeners store is not rolled back with the refusal.
      // Only a request that could not pay exhausts the pool; an operator's adjustment refused does not.
      const left = reason === 'consumo' ? this.stmts.balance.get(accountId) : undefined;
      if (left !== undefined) this.refused(accountId, left);
      throw apiError('credits_exhausted');
    }
    this.metrics.creditsMoved(reason, amount);
    for (const listener of this.debitListeners) {
      try {
        listener(accountId, balance + amount, balance);
      } catch {
        // The charge stands; the listener reports its own failures.
      }
    }
    return balance;
  }

  private refused(accountId: string, balance: number): void {
    for (const listener of this.refusalListeners) {
      try {
        listener(accountId, balance);
      } catch {
        // The refusal stands; the listener reports its own failures.
      }
    }
  }

  /** Adds credits (top-up by the operator, or the refund of a charge whose request failed). */
  credit(
    accountId: string,
    amount: number,
    reason: 'recarga' | 'reembolso' | 'ajuste',
    ctx?: Partial<ChargeContext>,
  ): number {
    const balance = this.db.transaction(() => {
      const row = this.stmts.credit.get(amount, accountId);
      if (!row) throw apiError('not_found', 'Cuenta no encontrada.');
      this.stmts.record.run(
        accountId,
        amount,
        row.credits,
        reason,
        ctx?.spaceId ?? null,
        ctx?.route ?? null,
        ctx?.requestId ?? null,
        new Date(this.clock.now()).toISOString(),
      );
      return row.credits;
    })();
    this.metrics.creditsMoved(reason, amount);
    return balance;
  }

  recent(accountId: string, limit = 20): Movement[] {
    return this.stmts.recent.all(accountId, limit).map((m) => ({
      id: m.id,
      delta: m.delta,
      saldo: m.balance_after,
      motivo: m.reason,
      espacio: m.space_id,
      ruta: m.route,
      fecha: m.created_at,
    }));
  }
}

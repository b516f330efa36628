import { inject, injectable } from 'tsyringe';
import type { Clock } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import { apiError } from '@cerebro/sdk';
import type { HostMetrics } from '../metrics/metrics-services.js';
import {
  CreditLedgerRepositoryToken,
  type CreditLedgerRepository,
  type MovementEntry,
} from '../storage/port/credit-ledger-repository.js';
import type { ChargeContext, CreditLedger, Movement } from './credit-services.js';

/**
 * The credit pool (`bolsa`) of accounts over the ledger repository, which moves the balance and records the movement
 * in one transaction and never takes a balance below zero. This layer adds what is not storage: the API errors, the
 * metrics and the debit listeners.
 */
@injectable()
export class CreditLedgerService implements CreditLedger {
  private readonly debitListeners: ((accountId: string, before: number, after: number) => void)[] = [];
  private readonly refusalListeners: ((accountId: string, balance: number) => void)[] = [];

  constructor(
    @inject(CreditLedgerRepositoryToken) private readonly repo: CreditLedgerRepository,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Metrics) private readonly metrics: HostMetrics,
  ) {}

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

  async debit(
    accountId: string,
    amount: number,
    ctx: ChargeContext,
    reason: 'consumo' | 'ajuste' = 'consumo',
  ): Promise<number> {
    const balance = await this.repo.debit(accountId, amount, this.entry(reason, ctx));
    if (balance === null) {
      // Told after the refused debit, so what the listeners store is not rolled back with it. Only a request that
      // could not pay exhausts the pool; an operator's adjustment refused does not.
      const left = reason === 'consumo' ? await this.repo.balance(accountId) : undefined;
      if (left !== undefined && left !== null) this.refused(accountId, left);
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

  async credit(
    accountId: string,
    amount: number,
    reason: 'recarga' | 'reembolso' | 'ajuste',
    ctx?: Partial<ChargeContext>,
  ): Promise<number> {
    const balance = await this.repo.credit(accountId, amount, this.entry(reason, ctx));
    if (balance === null) throw apiError('not_found', 'Cuenta no encontrada.');
    this.metrics.creditsMoved(reason, amount);
    return balance;
  }

  async refundRequest(
    accountId: string,
    requestId: string,
    routeFragment: string,
    spaceId: string | null,
  ): Promise<number> {
    const { refunded } = await this.repo.refundRequest(accountId, requestId, routeFragment, {
      spaceId,
      at: this.now(),
    });
    if (refunded > 0) this.metrics.creditsMoved('reembolso', refunded);
    return refunded;
  }

  async recent(accountId: string, limit = 20, beforeId?: number): Promise<Movement[]> {
    return (await this.repo.recent(accountId, limit, beforeId)).map((m) => ({
      id: m.id,
      delta: m.delta,
      saldo: m.balanceAfter,
      motivo: m.reason,
      espacio: m.spaceId,
      ruta: m.route,
      fecha: m.createdAt,
    }));
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

  private entry(reason: MovementEntry['reason'], ctx: Partial<ChargeContext> | undefined): MovementEntry {
    return {
      reason,
      spaceId: ctx?.spaceId ?? null,
      route: ctx?.route ?? null,
      requestId: ctx?.requestId ?? null,
      hold: ctx?.hold ?? null,
      at: this.now(),
    };
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

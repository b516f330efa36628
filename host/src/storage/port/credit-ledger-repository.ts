import type { IdempotencyScope } from '../../idempotency/idempotency-services.js';
import { createToken } from '@cerebro/sdk';

export type MovementReason = 'consumo' | 'ajuste' | 'recarga' | 'reembolso';

/** What a movement records beside its amount; `at` is the ISO time of the service's clock. */
export interface MovementEntry {
  reason: MovementReason;
  spaceId: string | null;
  route: string | null;
  requestId: string | null;
  at: string;
  /**
   * The `Idempotency-Key` hold of the request paying or refunded. A debit records its charge on the hold, a credit
   * (the refund of that request's failure) clears it, each in the movement's own transaction: a process that dies
   * right after either leaves a hold whose takeover refunds exactly what is still owed (never a charge the retry pays
   * again, never a refund given twice).
   */
  hold?: IdempotencyScope | null;
}

/** A recorded movement of an account's credit pool. */
export interface MovementRecord {
  id: number;
  delta: number;
  balanceAfter: number;
  reason: string;
  spaceId: string | null;
  route: string | null;
  createdAt: string;
}

/** What `refundRequest` gave back, and the balance after it (null when nothing was owed). */
export interface RequestRefund {
  refunded: number;
  balance: number | null;
}

/**
 * The credit pools (`bolsa`) of accounts and their movements. Every method that changes a balance is ONE
 * transaction that moves the balance and records the movement, so the sum of an account's movements always equals
 * the change of its balance; a PostgreSQL implementation must give the same (one transaction, row lock or
 * conditional UPDATE).
 */
export interface CreditLedgerRepository {
  /**
   * Takes `amount` only when the balance covers it; returns the balance after, or null (nothing changed) when it
   * does not or the account does not exist. Concurrent debits never take a balance below zero.
   */
  debit(accountId: string, amount: number, entry: MovementEntry): Promise<number | null>;
  /** Adds `amount`; returns the balance after, or null (nothing recorded) when the account does not exist. */
  credit(accountId: string, amount: number, entry: MovementEntry): Promise<number | null>;
  /**
   * Gives back what request `requestId` was charged (`consumo`) on routes whose label contains `routeFragment`, less
   * what was already refunded for that request (`reembolso`), in one transaction: a second call, or a refund the
   * pipeline already made, gives back nothing. The movement carries the charge's route.
   */
  refundRequest(
    accountId: string,
    requestId: string,
    routeFragment: string,
    entry: { spaceId: string | null; at: string },
  ): Promise<RequestRefund>;
  /** The balance of an account, or null when it does not exist. */
  balance(accountId: string): Promise<number | null>;
  /** The latest `limit` movements of an account older than movement `beforeId` (default: the latest), newest first. */
  recent(accountId: string, limit: number, beforeId?: number): Promise<MovementRecord[]>;
}

export const CreditLedgerRepositoryToken = createToken<CreditLedgerRepository>('host:credit-ledger-repository');

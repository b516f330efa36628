// The credit services' interfaces, which the host's tokens are typed by: the pipeline, the operator's actions, the
// plugins' refunds and the owner's routes depend on these shapes, not on the classes that implement them.
import type { OwnerCaller } from '../access/caller.js';
import type { IdempotencyScope } from '../idempotency/idempotency-services.js';

export interface Movement {
  id: number;
  delta: number;
  saldo: number;
  motivo: string;
  espacio: string | null;
  ruta: string | null;
  fecha: string;
}

export interface ChargeContext {
  spaceId: string | null;
  route: string | null;
  requestId: string | null;
  /** The `Idempotency-Key` hold the charge pays for: recorded on it with the debit (refunded if its process dies). */
  hold?: IdempotencyScope | null;
}

/** The credit pool (`bolsa`) of accounts: each change moves the balance and records the movement in one transaction. */
export interface CreditLedger {
  /** Takes `amount` credits, resolving to the balance after; rejects with 402 `credits_exhausted` without touching it. */
  debit(accountId: string, amount: number, ctx: ChargeContext, reason?: 'consumo' | 'ajuste'): Promise<number>;
  /** Adds credits (top-up by the operator, or the refund of a charge whose request failed); 404 for no account. */
  credit(
    accountId: string,
    amount: number,
    reason: 'recarga' | 'reembolso' | 'ajuste',
    ctx?: Partial<ChargeContext>,
  ): Promise<number>;
  /**
   * Gives back, once, what request `requestId` was charged on routes whose label contains `routeFragment`, less what
   * was already refunded for it; resolves to the credits given back (0 when nothing is owed).
   */
  refundRequest(accountId: string, requestId: string, routeFragment: string, spaceId: string | null): Promise<number>;
  /** The latest `limit` movements, or those before movement `beforeId` (paging back), newest first. */
  recent(accountId: string, limit?: number, beforeId?: number): Promise<Movement[]>;
  /**
   * Called after every debit with the balance before and after it (webhooks' `creditos.bajos` / `creditos.agotados`).
   * A listener that throws is logged by its owner, never fails the debit.
   */
  onDebit(listener: (accountId: string, before: number, after: number) => void): void;
  /** Called when a debit is refused for lack of credits, with the balance that could not pay. */
  onRefused(listener: (accountId: string, balance: number) => void): void;
}

/** A credit pool as `GET /cuentas/{cuenta}/bolsa` answers it. */
export interface CreditPoolView {
  cuenta: string;
  saldo: number;
  movimientos: Movement[];
}

/** What an owner sees of their accounts' credit pools: only accounts of spaces they reach, and only when paid. */
export interface OwnerCreditPools {
  /**
   * The balance and the latest `movements` of an account (those before movement `beforeId` when given); 403 out of
   * the caller's reach, 402 unpaid or suspended.
   */
  poolOf(caller: OwnerCaller, accountId: string, movements: number, beforeId?: number): Promise<CreditPoolView>;
}

// The credit pool's interface, which the host's token is typed by: the pipeline, the operator's actions and the
// plugins' refunds depend on this shape, not on the class that implements it.

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
}

/** The credit pool (`bolsa`) of accounts: each change moves the balance and records the movement in one transaction. */
export interface CreditLedger {
  /** Takes `amount` credits or throws 402 `credits_exhausted` without touching the balance. */
  debit(accountId: string, amount: number, ctx: ChargeContext, reason?: 'consumo' | 'ajuste'): number;
  /** Adds credits (top-up by the operator, or the refund of a charge whose request failed). */
  credit(
    accountId: string,
    amount: number,
    reason: 'recarga' | 'reembolso' | 'ajuste',
    ctx?: Partial<ChargeContext>,
  ): number;
  recent(accountId: string, limit?: number): Movement[];
  /**
   * Called after every debit with the balance before and after it (webhooks' `creditos.bajos` / `creditos.agotados`).
   * A listener that throws is logged by its owner, never fails the debit.
   */
  onDebit(listener: (accountId: string, before: number, after: number) => void): void;
}

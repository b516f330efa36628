// What a request's refund gives back, from the movements recorded for that request: the same rule on every backend
// (CreditLedgerRepository.refundRequest), computed inside the implementation's transaction.

/** A movement of one request, as the ledger reads it back. */
export interface RequestMovement {
  delta: number;
  reason: string;
  route: string | null;
}

/**
 * What the request was charged (`consumo`) on routes containing `routeFragment`, less what was already refunded for
 * it (`reembolso`); and the route the refund is recorded with (its first charge's).
 */
export function owedRefund(
  movements: readonly RequestMovement[],
  routeFragment: string,
): { owed: number; route: string | null } {
  const charged = movements
    .filter((m) => m.reason === 'consumo' && m.route?.includes(routeFragment))
    .reduce((n, m) => n - m.delta, 0);
  const given = movements.filter((m) => m.reason === 'reembolso').reduce((n, m) => n + m.delta, 0);
  return { owed: charged - given, route: movements.find((m) => m.reason === 'consumo')?.route ?? null };
}

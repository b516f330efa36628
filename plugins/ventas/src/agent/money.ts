// Money in the agent: amounts are kept in cents (integers) for arithmetic so totals never drift. They are written
// and read back with the sdk's formatMoney / parseAmount ("45.000 COP", "12,50 EUR"), shared with landing pages.

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

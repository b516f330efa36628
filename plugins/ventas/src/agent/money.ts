// Money in the agent: amounts are kept in cents (integers) for arithmetic so totals never drift,
// and written the Spanish way with the ISO code after: "45.000 COP", "12,50 EUR".

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** "45.000 COP", "1.234,50 EUR": thousands with dots, decimals with a comma only when present. */
export function formatMoney(amount: number, currency: string): string {
  const cents = toCents(amount);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const rest = abs % 100;
  const decimals = rest === 0 ? '' : `,${rest.toString().padStart(2, '0')}`;
  return `${negative ? '-' : ''}${units}${decimals} ${currency}`;
}

/**
 * Reads a written amount back ("45.000", "45000", "12,50", "12.5", "1.234,50", "1,500").
 * A separator followed by exactly three digits is a thousands separator; otherwise decimals.
 */
export function parseAmount(written: string): number | null {
  const s = written.replace(/\s/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return null;
  const lastSep = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  if (lastSep === -1) return Number(s);
  const tail = s.slice(lastSep + 1);
  const head = s.slice(0, lastSep).replace(/[.,]/g, '');
  if (tail.length === 3) return Number(head + tail);
  if (tail.length === 0 || tail.length > 2) return null;
  return Number(`${head}.${tail}`);
}

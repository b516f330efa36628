// Money the way the sales module writes it ("45.000 COP", "12,50 EUR"), so a landing quotes a price exactly as the
// catalog and the sales agent do.

/** "45.000 COP", "1.234,50 EUR": thousands with dots, decimals with a comma only when present. */
export function formatMoney(amount: number, currency: string): string {
  const c = Math.round(Math.abs(amount) * 100);
  const units = Math.floor(c / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const rest = c % 100;
  return `${amount < 0 ? '-' : ''}${units}${rest === 0 ? '' : `,${rest.toString().padStart(2, '0')}`} ${currency}`;
}

/**
 * Reads a written number back ("45.000", "45000", "12,50", "12.5", "1.234,50"). A separator followed by exactly
 * three digits is a thousands separator; otherwise decimals.
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

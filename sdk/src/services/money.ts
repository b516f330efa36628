// Prices as the sales catalog writes them: "45.000 COP", "12,50 EUR" (thousands with dots, decimals with a comma,
// the ISO code after). In the sdk so every module that quotes the catalog (the sales agent, landing pages) writes a
// price and reads one back exactly the same way.

/** "45.000 COP", "1.234,50 EUR": thousands with dots, decimals with a comma only when present. */
export function formatMoney(amount: number, currency: string): string {
  const cents = Math.round(amount * 100);
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const rest = abs % 100;
  const decimals = rest === 0 ? '' : `,${rest.toString().padStart(2, '0')}`;
  return `${cents < 0 ? '-' : ''}${units}${decimals} ${currency}`;
}

/**
 * Reads a written amount back ("45.000", "45000", "12,50", "12.5", "1.234,50", "1,500"). A separator followed by
 * exactly three digits is a thousands separator; otherwise decimals. Null for anything that is not an amount.
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

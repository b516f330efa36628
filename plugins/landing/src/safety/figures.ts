// The figure check: a price on a page must be one the catalog holds for that currency, and any other number must
// come from the catalog (stock), from the caller's own brief, or from a document fact kept with its provenance. It
// reads the page's visible text, so it checks template copy, model copy and hand-edited HTML alike.
import type { CatalogFact } from '../model.js';
import { parseAmount } from '@cerebro/sdk';

export interface FigureViolation {
  texto: string;
  motivo: string;
}

/** A written number: digits with thousands or decimal separators. */
const NUMBER = /\d(?:[\d.,]*\d)?/g;
/** A written price: a currency sign before, or an ISO code after. */
const MONEY = /(?:(US\$|\$|€|£)\s?(\d(?:[\d.,]*\d)?))|(?:(\d(?:[\d.,]*\d)?)\s?(€|\$|[A-Z]{3})\b)/g;
/** ISO 4217 codes of the currencies a price is likely written in (plus whatever the catalog uses). */
const CURRENCIES = new Set([
  'COP',
  'EUR',
  'USD',
  'MXN',
  'ARS',
  'CLP',
  'PEN',
  'GBP',
  'BRL',
  'UYU',
  'BOB',
  'PYG',
  'VES',
  'CRC',
  'GTQ',
  'DOP',
  'HNL',
  'NIO',
  'PAB',
  'CAD',
  'CHF',
  'JPY',
]);
const SIGN_CURRENCY: Readonly<Record<string, string[]>> = { '€': ['EUR'], '£': ['GBP'], $: [], US$: ['USD'] };

const cents = (n: number) => Math.round(n * 100);

function numbersIn(texts: readonly string[]): Set<number> {
  const values = new Set<number>();
  for (const t of texts) {
    for (const m of t.matchAll(NUMBER)) {
      const v = parseAmount(m[0]);
      if (v !== null) values.add(cents(v));
    }
  }
  return values;
}

export interface FigureSources {
  catalog: readonly CatalogFact[];
  /** Text the caller wrote (objective, audience, CTA, contact) and document facts: numbers in them may appear. */
  texts: readonly string[];
  /**
   * Names the page may quote whole, digits and all (the brand's own name, "Forever 21"; the catalog's product
   * names): where one is written on the page its digits are part of the name, not a figure to back. A digit of the
   * name used elsewhere ("21 días") still needs a source of its own.
   */
  names?: readonly string[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The page text with every quoted name blanked out (same length, so positions stay), matched whole and
 * case-insensitively (a heading may capitalise it) and with any spacing; a name without a letter ("24") is a
 * figure, never a name. Longer names first, so "3M Pro" wins over "3M".
 */
function withoutNames(pageText: string, names: readonly string[]): string {
  const wanted = [...new Set(names.map((n) => n.trim()).filter((n) => /\d/.test(n) && /\p{L}/u.test(n)))].sort(
    (a, b) => b.length - a.length,
  );
  if (wanted.length === 0) return pageText;
  // Not inside a longer word or number: "3M" is the brand in "3M cinta", not in "23M".
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${wanted.map((n) => escapeRegExp(n).replace(/\s+/g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`,
    'giu',
  );
  return pageText.replace(pattern, (m) => ' '.repeat(m.length));
}

/** Prices written on the page that the catalog does not hold, and numbers with no source. */
export function unsupportedFigures(
  pageText: string,
  sources: FigureSources,
  options: { onlyMoney?: boolean } = {},
): FigureViolation[] {
  const violations: FigureViolation[] = [];
  pageText = withoutNames(pageText, sources.names ?? []);
  const prices = sources.catalog.filter((p) => !p.sin_precio);
  const moneySpans: [number, number][] = [];
  for (const m of pageText.matchAll(MONEY)) {
    const sign = m[1];
    const written = m[2] ?? m[3];
    const code = m[4];
    const amount = parseAmount(written);
    if (code && /^[A-Z]{3}$/.test(code) && !CURRENCIES.has(code) && !sources.catalog.some((p) => p.moneda === code))
      continue; // "3 USB" is no price
    moneySpans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    const currencies = sign ? SIGN_CURRENCY[sign] : code === '€' ? ['EUR'] : code === '$' ? [] : [code];
    const held =
      amount !== null &&
      prices.some(
        (p) => cents(p.precio) === cents(amount) && (currencies.length === 0 || currencies.includes(p.moneda)),
      );
    if (!held) violations.push({ texto: m[0], motivo: 'precio que el catálogo no tiene' });
  }
  if (options.onlyMoney) return violations;
  const allowed = numbersIn(sources.texts);
  for (const p of sources.catalog) {
    allowed.add(cents(p.stock));
    if (!p.sin_precio) allowed.add(cents(p.precio));
    for (const v of numbersIn([p.nombre, p.descripcion])) allowed.add(v);
  }
  for (const m of pageText.matchAll(NUMBER)) {
    const at = m.index ?? 0;
    if (moneySpans.some(([from, to]) => at >= from && at < to)) continue;
    const v = parseAmount(m[0]);
    if (v === null || !allowed.has(cents(v)))
      violations.push({ texto: m[0], motivo: 'cifra sin respaldo en el catálogo ni en los datos de la landing' });
  }
  return violations;
}

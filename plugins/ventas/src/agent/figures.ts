// The figure checker: before an answer leaves, every money amount (price, total, shipping) and
// every stock number in it must be one the catalog or the quote actually holds. It reads the text
// itself, so it checks wording from templates, from the brand and from an external LLM alike.
// Discount percentages always fail: the catalog holds no discounts.
import type { Product } from './catalog.js';
import { parseAmount } from '@cerebro/sdk';
import { toCents } from './money.js';
import type { QuoteView } from './quote.js';
import { productWords } from './match.js';
import { fold, sameWord, sentences, tokens } from './text.js';

export type FigureKind = 'dinero' | 'stock' | 'descuento';

export interface FigureViolation {
  tipo: FigureKind;
  /** The figure as written. */
  texto: string;
  motivo: string;
}

type Amounts = Map<string, Set<number>>;

/** What an answer may state: amounts by currency (cents) and stock numbers by product. */
export interface Facts {
  /** Catalog prices and shipping costs (shared, cached per catalog array). */
  catalog: Amounts;
  /** Amounts of this conversation's quote. */
  quote: Amounts;
  stocks: readonly { product: Product; stock: number; folded: string }[];
  /** Every currency that appears in the facts. */
  currencies: string[];
}

function addAmount(amounts: Amounts, currency: string, amount: number): void {
  if (!amounts.has(currency)) amounts.set(currency, new Set());
  amounts.get(currency)!.add(toCents(amount));
}

const catalogCache = new WeakMap<readonly Product[], { amounts: Amounts; stocks: Facts['stocks'] }>();

function catalogFacts(products: readonly Product[]): { amounts: Amounts; stocks: Facts['stocks'] } {
  let c = catalogCache.get(products);
  if (!c) {
    const amounts: Amounts = new Map();
    for (const p of products) {
      addAmount(amounts, p.moneda, p.precio);
      for (const cost of Object.values(p.envio ?? {})) addAmount(amounts, p.moneda, cost);
    }
    c = { amounts, stocks: products.map((p) => ({ product: p, stock: p.stock, folded: fold(p.nombre) })) };
    catalogCache.set(products, c);
  }
  return c;
}

/** Facts from the whole catalog plus the conversation's quote (line amounts, subtotal, shipping, total). */
export function factsFrom(products: readonly Product[], quote: QuoteView | null): Facts {
  const { amounts, stocks } = catalogFacts(products);
  const q: Amounts = new Map();
  if (quote && quote.moneda) {
    for (const l of quote.lineas) addAmount(q, quote.moneda, l.importe);
    addAmount(q, quote.moneda, quote.subtotal);
    addAmount(q, quote.moneda, quote.total);
    if (quote.envio) addAmount(q, quote.moneda, quote.envio.costo);
  }
  return { catalog: amounts, quote: q, stocks, currencies: [...new Set([...amounts.keys(), ...q.keys()])] };
}

const CURRENCY_WORDS: Record<string, string[]> = {
  pesos: ['COP', 'MXN', 'ARS', 'CLP', 'UYU', 'DOP'],
  peso: ['COP', 'MXN', 'ARS', 'CLP', 'UYU', 'DOP'],
  euros: ['EUR'],
  euro: ['EUR'],
  dolares: ['USD'],
  dolar: ['USD'],
  soles: ['PEN'],
  sol: ['PEN'],
  '€': ['EUR'],
  us$: ['USD'],
  u$s: ['USD'],
  's/': ['PEN'],
};

const NUMBER = String.raw`\d{1,3}(?:[.\s]\d{3})+(?:,\d{1,2})?|\d+(?:[.,]\d{1,3})?`;
// Prefix marker ($ 45.000, € 12) or suffix marker (45.000 COP, 12,50 €, 30 pesos).
const MONEY_PREFIX = new RegExp(String.raw`(US\$|U\$S|S\/|\$|€)\s?(${NUMBER})`, 'giu');
const MONEY_SUFFIX = new RegExp(
  String.raw`(${NUMBER})\s?(€|[A-Z]{3}\b|[Pp]esos?\b|[Ee]uros?\b|[Dd][oó]lares\b|[Dd][oó]lar\b|[Ss]oles\b)`,
  'gu',
);
const PERCENT = new RegExp(String.raw`(${NUMBER})\s?(%|por ?ciento)`, 'giu');
// "quedan 3", "tenemos 3 unidades", "hay 3", "stock: 3", "3 unidades disponibles", "3 en stock".
const STOCK_BEFORE = /\b(quedan|queda|stock|existencias|disponibles?)\s*:?\s*(?:solo\s+|solamente\s+)?(\d+)\b/giu;
// "tenemos 3 ..." / "hay 3 ..." state stock only when units or a product follow ("hay 2 sedes" does not).
const STOCK_HAVE = /\b(tenemos|tengo|hay|contamos con)\s+(?:solo\s+|solamente\s+)?(\d+)\s+([^.!?;,\n]*)/giu;
const STOCK_AFTER = /\b(\d+)\s+(?:unidades?\s+)?(disponibles?|en stock|en existencia)/giu;

const ISO_CODES = new Set(['COP', 'EUR', 'USD', 'MXN', 'ARS', 'CLP', 'PEN', 'UYU', 'DOP', 'GTQ', 'BOB', 'PYG', 'CRC']);

/** Currencies a marker may stand for; "$" and unknown markers could be any of the catalog's. */
function currenciesOf(marker: string, facts: Facts): string[] {
  if (/^[A-Z]{3}$/.test(marker)) return [marker];
  const known = (word: string) => (Object.hasOwn(CURRENCY_WORDS, word) ? CURRENCY_WORDS[word] : undefined);
  return known(marker.toLowerCase()) ?? known(fold(marker)) ?? facts.currencies;
}

function moneyAllowed(amount: number, currencies: string[], facts: Facts): boolean {
  const cents = toCents(amount);
  return currencies.some((c) => facts.catalog.get(c)?.has(cents) || facts.quote.get(c)?.has(cents));
}

/** The stock numbers a sentence may state: those of products it names, else of any product. */
function stocksFor(sentence: string, facts: Facts): Set<number> {
  const f = fold(sentence);
  const named = facts.stocks.filter((s) => f.includes(s.folded));
  return new Set((named.length > 0 ? named : facts.stocks).map((s) => s.stock));
}

/** Whether the words after "tenemos N" are units or a product of the catalog. */
function aboutUnits(rest: string, facts: Facts): boolean {
  const words = tokens(rest).slice(0, 3);
  if (words.some((w) => /^(unidad|unidades|disponibles?|piezas?|pares?)$/.test(w))) return true;
  return facts.stocks.some((s) => productWords(s.product.nombre).some((n) => words.some((w) => sameWord(w, n))));
}

/** Lists every figure of `text` that the facts do not back. */
export function checkFigures(text: string, facts: Facts): FigureViolation[] {
  const out: FigureViolation[] = [];
  const push = (v: FigureViolation) => out.push(v);
  for (const sentence of sentences(text)) {
    const moneySpans: [number, number][] = [];
    for (const m of sentence.matchAll(MONEY_PREFIX)) {
      moneySpans.push([m.index!, m.index! + m[0].length]);
      const amount = parseAmount(m[2]);
      if (amount === null || !moneyAllowed(amount, currenciesOf(m[1], facts), facts)) {
        push({ tipo: 'dinero', texto: m[0], motivo: 'importe que no está en el catálogo ni en la cotización' });
      }
    }
    for (const m of sentence.matchAll(MONEY_SUFFIX)) {
      const start = m.index!;
      if (moneySpans.some(([a, b]) => start >= a && start < b)) continue;
      // "2 USB" is not money: only currency codes count as markers.
      if (/^[A-Z]{3}$/.test(m[2]) && !facts.currencies.includes(m[2]) && !ISO_CODES.has(m[2])) continue;
      const amount = parseAmount(m[1]);
      if (amount === null || !moneyAllowed(amount, currenciesOf(m[2], facts), facts)) {
        push({ tipo: 'dinero', texto: m[0], motivo: 'importe que no está en el catálogo ni en la cotización' });
      }
    }
    for (const m of sentence.matchAll(PERCENT)) {
      push({ tipo: 'descuento', texto: m[0], motivo: 'el catálogo no tiene descuentos' });
    }
    const allowedStocks = stocksFor(sentence, facts);
    for (const m of sentence.matchAll(STOCK_BEFORE)) {
      if (!allowedStocks.has(Number(m[2])))
        push({ tipo: 'stock', texto: m[0], motivo: 'existencias distintas a las del catálogo' });
    }
    for (const m of sentence.matchAll(STOCK_HAVE)) {
      if (!aboutUnits(m[3], facts)) continue;
      if (!allowedStocks.has(Number(m[2])))
        push({ tipo: 'stock', texto: m[0], motivo: 'existencias distintas a las del catálogo' });
    }
    for (const m of sentence.matchAll(STOCK_AFTER)) {
      if (!allowedStocks.has(Number(m[1])))
        push({ tipo: 'stock', texto: m[0], motivo: 'existencias distintas a las del catálogo' });
    }
  }
  return out;
}

/**
 * Correction: drops every sentence holding a figure the facts do not back. Returns null when
 * nothing trustworthy is left (the caller then replaces the answer).
 */
export function dropUnbackedSentences(text: string, facts: Facts): string | null {
  const kept = text
    .split('\n')
    .map((line) =>
      sentences(line)
        .filter((s) => checkFigures(s, facts).length === 0)
        .join(' '),
    )
    .filter((line) => line.trim() !== '');
  return kept.length === 0 ? null : kept.join('\n');
}

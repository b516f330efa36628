// The running quote of a conversation. Only product ids and quantities are persisted; prices,
// shipping and totals are recomputed from the current catalog every time (in cents), so a figure
// in an answer is always the catalog's, never remembered text.
import { shippingCost, type Product } from './catalog.js';
import { fromCents, toCents } from './money.js';

export interface QuoteLine {
  productId: string;
  cantidad: number;
}

export interface QuoteLineView {
  product: Product;
  cantidad: number;
  /** precio × cantidad */
  importe: number;
}

export interface QuoteView {
  lineas: QuoteLineView[];
  moneda: string | null;
  subtotal: number;
  /**
   * One shipment per quote: its cost is the highest shipping cost among the quoted products for
   * the city. Null when the city is unknown or some product does not ship there.
   */
  envio: { ciudad: string; costo: number } | null;
  /** The customer's city, when known. */
  ciudad: string | null;
  /** Products of the quote with no shipping to the known city. */
  sinEnvio: Product[];
  total: number;
  /** Ids quoted earlier that the catalog no longer has (dropped from the view). */
  retirados: string[];
}

export function computeQuote(
  lines: readonly QuoteLine[],
  products: readonly Product[],
  city: string | null,
): QuoteView {
  const byId = new Map(products.map((p) => [p.id, p]));
  const lineas: QuoteLineView[] = [];
  const retirados: string[] = [];
  let subtotalCents = 0;
  for (const line of lines) {
    const product = byId.get(line.productId);
    if (!product) {
      retirados.push(line.productId);
      continue;
    }
    const cents = toCents(product.precio) * line.cantidad;
    subtotalCents += cents;
    lineas.push({ product, cantidad: line.cantidad, importe: fromCents(cents) });
  }
  let envio: QuoteView['envio'] = null;
  const sinEnvio: Product[] = [];
  if (city !== null && lineas.length > 0) {
    let maxCents = 0;
    for (const l of lineas) {
      const cost = shippingCost(l.product, city);
      if (cost === null) sinEnvio.push(l.product);
      else maxCents = Math.max(maxCents, toCents(cost));
    }
    if (sinEnvio.length === 0) envio = { ciudad: city, costo: fromCents(maxCents) };
  }
  const totalCents = subtotalCents + (envio ? toCents(envio.costo) : 0);
  return {
    lineas,
    moneda: lineas[0]?.product.moneda ?? null,
    subtotal: fromCents(subtotalCents),
    envio,
    ciudad: city,
    sinEnvio,
    total: fromCents(totalCents),
    retirados,
  };
}

export type AddResult =
  | { ok: true; lines: QuoteLine[]; cantidadTotal: number }
  | { ok: false; motivo: 'agotado' }
  | { ok: false; motivo: 'stock_insuficiente'; disponible: number; yaCotizado: number }
  | { ok: false; motivo: 'moneda'; monedaCotizacion: string };

/** Adds units of a product, never beyond its stock and never mixing currencies in one quote. */
export function addToQuote(
  lines: readonly QuoteLine[],
  products: readonly Product[],
  product: Product,
  cantidad: number,
): AddResult {
  if (product.stock <= 0) return { ok: false, motivo: 'agotado' };
  const current = computeQuote(lines, products, null);
  if (current.moneda !== null && current.moneda !== product.moneda) {
    return { ok: false, motivo: 'moneda', monedaCotizacion: current.moneda };
  }
  const already = lines.find((l) => l.productId === product.id)?.cantidad ?? 0;
  if (already + cantidad > product.stock) {
    return { ok: false, motivo: 'stock_insuficiente', disponible: product.stock, yaCotizado: already };
  }
  const next = lines.some((l) => l.productId === product.id)
    ? lines.map((l) => (l.productId === product.id ? { ...l, cantidad: l.cantidad + cantidad } : { ...l }))
    : [...lines.map((l) => ({ ...l })), { productId: product.id, cantidad }];
  return { ok: true, lines: next, cantidadTotal: already + cantidad };
}

export function removeFromQuote(lines: readonly QuoteLine[], productId: string): QuoteLine[] {
  return lines.filter((l) => l.productId !== productId).map((l) => ({ ...l }));
}

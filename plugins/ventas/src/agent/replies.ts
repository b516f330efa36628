// Deterministic Spanish wording of the agent's answers. Every figure is formatted from catalog
// or quote data here; nothing else in the agent writes a number. Sentences avoid the shapes the
// figure checker reads as stock ("hay 3 ...") unless they state a real stock.
import { isPluralName, ofProduct, productSubject, withArticle } from './article.js';
import type { Product } from './catalog.js';
import { formatMoney } from '@cerebro/sdk';
import type { QuoteView } from './quote.js';

export function price(p: Product): string {
  return formatMoney(p.precio, p.moneda);
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} y ${items[items.length - 1]}`;
}

export function stockSentence(p: Product): string {
  if (p.stock <= 0) return `Por ahora no quedan unidades ${ofProduct(p.nombre)}.`;
  return p.stock === 1
    ? `Queda 1 unidad ${ofProduct(p.nombre)}.`
    : `Tenemos ${p.stock} unidades ${ofProduct(p.nombre)}.`;
}

export function productInfo(p: Product): string {
  const desc = p.descripcion?.replace(/[.\s]+$/, '');
  // Without a description the price follows the name at once ("Martillo: 12,50 EUR."), not a second label after it.
  const line = desc ? `${p.nombre}: ${desc}. Precio: ${price(p)}.` : `${p.nombre}: ${price(p)}.`;
  return `${line}\n${stockSentence(p)}`;
}

export function priceInfo(p: Product): string {
  const out = `El precio ${ofProduct(p.nombre)} es ${price(p)}.`;
  return p.stock <= 0 ? `${out} Por ahora no quedan unidades.` : out;
}

export function whichOne(options: readonly Product[]): string {
  return `Tengo varias opciones: ${list(options.map((p) => `${p.nombre} (${price(p)})`))}. ¿Cuál te interesa?`;
}

export function catalogList(products: readonly Product[], max = 8): string {
  if (products.length === 0) return 'Por ahora no tengo productos publicados en el catálogo.';
  const shown = products.slice(0, max).map((p) => `${p.nombre} (${price(p)})`);
  const more = products.length > max ? ' y más' : '';
  return `Estos son algunos de nuestros productos: ${list(shown)}${more}.`;
}

export function shippingInfo(p: Product, city: string, cost: number | null): string {
  return cost === null
    ? `Por ahora no tenemos envío ${ofProduct(p.nombre)} a ${city}.`
    : `El envío ${ofProduct(p.nombre)} a ${city} cuesta ${formatMoney(cost, p.moneda)}.`;
}

export function shippingCities(cities: readonly string[]): string {
  return cities.length === 0
    ? 'Por ahora no tengo ciudades de envío en el catálogo.'
    : `Hacemos envíos a ${list(cities)}; el costo depende del producto.`;
}

/** The quote, one line per product, then subtotal, shipping and total. */
export function quoteSummary(q: QuoteView): string {
  if (q.lineas.length === 0 || q.moneda === null) return 'Tu cotización está vacía.';
  const lines = ['Tu cotización:'];
  for (const l of q.lineas) lines.push(`${l.cantidad} x ${l.product.nombre}: ${formatMoney(l.importe, q.moneda)}`);
  if (q.envio) {
    lines.push(`Subtotal: ${formatMoney(q.subtotal, q.moneda)}`);
    lines.push(`Envío a ${q.envio.ciudad}: ${formatMoney(q.envio.costo, q.moneda)}`);
    lines.push(`Total: ${formatMoney(q.total, q.moneda)}`);
  } else {
    lines.push(`Total sin envío: ${formatMoney(q.subtotal, q.moneda)}`);
    if (q.sinEnvio.length > 0 && q.lineas.length > 0) {
      lines.push(`No tenemos envío a ${q.ciudad} para: ${list(q.sinEnvio.map((p) => p.nombre))}.`);
    } else {
      lines.push('El envío se suma cuando me digas tu ciudad.');
    }
  }
  return lines.join('\n');
}

export const TEXTS = {
  handoff: 'Listo, te comunico con una persona del equipo. Te escribirá por este mismo chat.',
  goodbye: '¡Gracias por escribirnos! Que tengas un excelente día.',
  askCity: '¿A qué ciudad sería el envío?',
  askProductForPrice: '¿De qué producto quieres saber el precio?',
  askProductForStock: '¿Qué producto quieres que revise?',
  askProductForQuote: '¿Qué producto quieres agregar a la cotización?',
  notFound: 'No tengo esa información. ¿Te ayudo con algún producto del catálogo?',
  /** Used when an answer failed the figure check and nothing trustworthy was left. */
  safe: 'Déjame confirmar ese dato en el catálogo. ¿Qué producto te interesa?',
  greetAgain: '¡Hola de nuevo! ¿En qué te ayudo?',
  help: '¿En qué te puedo ayudar?',
} as const;

export function greeting(presentation: string): string {
  return `¡Hola! ${presentation} ${TEXTS.help}`;
}

export function added(items: readonly { product: Product; cantidad: number }[]): string {
  return `Agregué ${list(items.map((i) => `${i.cantidad} x ${i.product.nombre}`))} a tu cotización.`;
}

export function removed(p: Product): string {
  return `Quité ${withArticle(p.nombre)} de tu cotización.`;
}

export function notInQuote(p: Product): string {
  return `${productSubject(p.nombre)} no ${isPluralName(p.nombre) ? 'están' : 'está'} en tu cotización.`;
}

export function outOfStockForQuote(p: Product): string {
  const it = isPluralName(p.nombre) ? 'no se pueden agregar' : 'no se puede agregar';
  return `Por ahora no quedan unidades ${ofProduct(p.nombre)}, así que ${it} a la cotización.`;
}

export function notEnoughStock(p: Product, yaCotizado: number): string {
  const base =
    p.stock === 1
      ? `Solo queda 1 unidad ${ofProduct(p.nombre)}`
      : `Solo tenemos ${p.stock} unidades ${ofProduct(p.nombre)}`;
  return yaCotizado > 0
    ? `${base} y ya tienes ${yaCotizado} en tu cotización.`
    : `${base}, así que no puedo agregar esa cantidad.`;
}

export function currencyMismatch(p: Product, moneda: string): string {
  return `${productSubject(p.nombre)} ${isPluralName(p.nombre) ? 'tienen' : 'tiene'} precio en ${p.moneda} y tu cotización está en ${moneda}; no puedo mezclarlos en la misma cotización.`;
}

export function cityNoted(city: string): string {
  return `Perfecto, anoto ${city} como tu ciudad.`;
}

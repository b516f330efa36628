// Wire shapes (Spanish field names) of what the ventas routes return.
import { computeQuote, type ConversationState, type Product } from './agent/index.js';
import type { ConversationRecord, StoredMessage } from './store/conversation-store.js';

export interface QuoteWire {
  lineas: { producto: string; nombre: string; cantidad: number; precio: number; importe: number }[];
  moneda: string | null;
  subtotal: number;
  envio: { ciudad: string; costo: number } | null;
  total: number;
  /** Quoted products with no shipping to the lead's city. */
  sin_envio: string[];
  /** Quoted products the catalog no longer has (left out of the totals). */
  retirados: string[];
}

/** id -> product per catalog array (the catalog store hands out one array until the next write). */
const indexes = new WeakMap<readonly Product[], Map<string, Product>>();

function quotedProducts(state: ConversationState, products: readonly Product[]): Product[] {
  let byId = indexes.get(products);
  if (!byId) {
    byId = new Map(products.map((p) => [p.id, p]));
    indexes.set(products, byId);
  }
  // computeQuote only needs the quoted products: listing 200 leads must not walk the whole catalog 200 times.
  return state.cotizacion.flatMap((l) => byId.get(l.productId) ?? []);
}

/** The running quote, recomputed from the current catalog by code (never remembered text). */
export function quoteView(state: ConversationState, products: readonly Product[]): QuoteWire {
  const q = computeQuote(state.cotizacion, quotedProducts(state, products), state.ciudad);
  return {
    lineas: q.lineas.map((l) => ({
      producto: l.product.id,
      nombre: l.product.nombre,
      cantidad: l.cantidad,
      precio: l.product.precio,
      importe: l.importe,
    })),
    moneda: q.moneda,
    subtotal: q.subtotal,
    envio: q.envio,
    total: q.total,
    sin_envio: q.sinEnvio.map((p) => p.id),
    retirados: q.retirados,
  };
}

/** A conversation as listed: the lead (contact, city, state) and its quote. */
export function conversationView(record: ConversationRecord, products: readonly Product[]) {
  const { state } = record;
  return {
    conversacion: record.id,
    estado: state.estado,
    motivo_derivacion: state.motivoDerivacion,
    contacto: record.contacto,
    ciudad: state.ciudad,
    cotizacion: quoteView(state, products),
    num_mensajes: record.mensajes,
    creada: record.creada,
    actualizada: record.actualizada,
  };
}

export function messageView(m: StoredMessage) {
  return { rol: m.rol, texto: m.texto, tipo: m.tipo, fecha: m.fecha };
}

// Catalog model: products of a space, their validation (shared by the routes and the CSV import)
// and shipping lookup by city.
import type { CatalogProduct } from '@cerebro/sdk';
import { fold } from './text.js';

/** A product of the catalog: what every reader of the catalog sees (sdk `CatalogProduct`), plus shipping. */
export interface Product extends CatalogProduct {
  /** Shipping cost per city, in `moneda`; a city absent here has no shipping. */
  envio?: Record<string, number>;
}

export interface ProductError {
  campo: string;
  mensaje: string;
}

export type ProductResult = { ok: true; product: Product } | { ok: false; errores: ProductError[] };

const FIELDS = ['id', 'nombre', 'descripcion', 'precio', 'moneda', 'stock', 'envio'];

function isMoney(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && Math.abs(Math.round(v * 100) - v * 100) < 1e-6;
}

/** Validates a product as sent to the catalog routes (JSON) or built from a CSV row. */
export function validateProduct(raw: unknown): ProductResult {
  const errors: ProductError[] = [];
  const add = (field: string, message: string) => errors.push({ campo: field, mensaje: `${field}: ${message}` });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, errores: [{ campo: '', mensaje: 'el producto debe ser un objeto' }] };
  }
  const p = raw as Record<string, unknown>;
  for (const k of Object.keys(p)) if (!FIELDS.includes(k)) add(k, 'campo desconocido');
  const text = (k: string, min: number, max: number): string => {
    const v = p[k] ?? '';
    if (typeof v !== 'string' || v.trim().length < min || v.trim().length > max) {
      add(
        k,
        min > 0 ? `debe ser un texto de ${min} a ${max} caracteres` : `debe ser un texto de hasta ${max} caracteres`,
      );
      return '';
    }
    return v.trim();
  };
  const id = text('id', 1, 64);
  if (id && !/^[\p{L}\p{N}._-]+$/u.test(id)) add('id', 'solo letras, números, punto, guion y guion bajo');
  const nombre = text('nombre', 1, 120);
  const descripcion = text('descripcion', 0, 1000);
  if (!isMoney(p.precio)) add('precio', 'debe ser un número mayor o igual a cero, con dos decimales como máximo');
  const moneda = typeof p.moneda === 'string' ? p.moneda.trim().toUpperCase() : '';
  if (!/^[A-Z]{3}$/.test(moneda)) add('moneda', 'debe ser un código de moneda de tres letras (COP, EUR, MXN...)');
  if (typeof p.stock !== 'number' || !Number.isInteger(p.stock) || p.stock < 0)
    add('stock', 'debe ser un número entero mayor o igual a cero');
  let shipping: Record<string, number> | undefined;
  if (p.envio !== undefined && p.envio !== null) {
    if (typeof p.envio !== 'object' || Array.isArray(p.envio)) add('envio', 'debe ser un objeto ciudad -> costo');
    else {
      const costs: [string, number][] = [];
      for (const [city, cost] of Object.entries(p.envio as Record<string, unknown>)) {
        if (city.trim() === '') add('envio', 'el nombre de la ciudad no puede estar vacío');
        else if (!isMoney(cost)) add(`envio.${city}`, 'el costo debe ser un número mayor o igual a cero');
        else costs.push([city.trim(), cost]);
      }
      // fromEntries defines own properties: a city named `__proto__` is a city, not the object's prototype.
      shipping = Object.fromEntries(costs);
    }
  }
  if (errors.length > 0) return { ok: false, errores: errors };
  const product: Product = { id, nombre, descripcion, precio: p.precio as number, moneda, stock: p.stock as number };
  if (shipping && Object.keys(shipping).length > 0) product.envio = shipping;
  return { ok: true, product };
}

/** Shipping cost of a product to a city (compared folded), or null when it does not ship there. */
export function shippingCost(product: Product, city: string): number | null {
  if (!product.envio) return null;
  const wanted = fold(city);
  for (const [name, cost] of Object.entries(product.envio)) if (fold(name) === wanted) return cost;
  return null;
}

/** Every city some product ships to, as written in the catalog: used to recognise cities in messages. */
const citiesCache = new WeakMap<readonly Product[], string[]>();

export function knownCities(products: readonly Product[]): string[] {
  const cached = citiesCache.get(products);
  if (cached) return cached;
  const byFolded = new Map<string, string>();
  const seen = new Set<string>();
  for (const p of products) {
    for (const city of Object.keys(p.envio ?? {})) {
      if (seen.has(city)) continue; // fold() is the costly part; most products repeat the same cities
      seen.add(city);
      byFolded.set(fold(city), city);
    }
  }
  const cities = [...byFolded.values()];
  citiesCache.set(products, cities);
  return cities;
}

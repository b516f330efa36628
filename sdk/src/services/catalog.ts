/**
 * The sales catalog of a space, read by other modules (landing pages quote names, prices and stock only from it).
 * Declared in the contract so `ventas` (which stores it) and its readers share one definition without depending on
 * each other's packages.
 */

/** One product as the catalog holds it now. */
export interface CatalogProduct {
  id: string;
  nombre: string;
  descripcion: string;
  /** Unit price in `moneda` units (up to two decimals). */
  precio: number;
  /** ISO 4217 code, upper case: "COP", "EUR", "MXN". */
  moneda: string;
  /** Units available now (integer >= 0). */
  stock: number;
}

/** Provided by `ventas`. Read-only: readers never change the catalog. */
export interface CatalogReader {
  /** Every product of the space, in the catalog's order (empty when the space has none). */
  products(spaceId: string): Promise<readonly CatalogProduct[]>;
}

import type { CatalogProduct, CatalogReader } from '@cerebro/sdk';
import type { CatalogStore } from './catalog-store.js';

/**
 * The catalog as other modules read it (`ModuleServices.Catalog`): copies of the products with the contract's
 * fields only, so a reader can neither change the store's cached array nor depend on ventas-only fields.
 */
export function catalogReader(store: CatalogStore): CatalogReader {
  return {
    products: async (spaceId: string): Promise<readonly CatalogProduct[]> =>
      (await store.products(spaceId)).map((p) => ({
        id: p.id,
        nombre: p.nombre,
        descripcion: p.descripcion ?? '',
        precio: p.precio,
        moneda: p.moneda,
        stock: p.stock,
      })),
  };
}

// The space's catalog in SQLite, and the agent's CatalogSource over it. The agent caches its
// matcher per catalog array (WeakMap by identity), so `products()` hands out the same frozen array
// while the catalog is unchanged and a new one after any write (see agent/README.md).
import type { Clock, PluginStorage } from '@cerebro/sdk';
import type { CatalogSource, Product } from '../agent/index.js';

export type ImportMode = 'combinar' | 'reemplazar';

export interface ImportCounts {
  creados: number;
  actualizados: number;
  eliminados: number;
}

export class CatalogStore implements CatalogSource {
  private readonly cache = new Map<string, readonly Product[]>();
  private readonly selectAll;
  private readonly selectOne;
  private readonly upsert;
  private readonly remove;
  private readonly removeAll;

  constructor(
    private readonly storage: PluginStorage,
    private readonly clock: Clock,
  ) {
    this.selectAll = storage.prepare<{ data: string }>(
      'SELECT data FROM ventas_products WHERE space_id = ? ORDER BY rowid',
    );
    this.selectOne = storage.prepare<{ data: string }>(
      'SELECT data FROM ventas_products WHERE space_id = ? AND id = ?',
    );
    this.upsert = storage.prepare(
      'INSERT INTO ventas_products (space_id, id, data, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (space_id, id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at',
    );
    this.remove = storage.prepare('DELETE FROM ventas_products WHERE space_id = ? AND id = ?');
    this.removeAll = storage.prepare('DELETE FROM ventas_products WHERE space_id = ?');
  }

  /** Every product of the space, in insertion order; the same array until the next write. */
  products(espacio: string): readonly Product[] {
    let products = this.cache.get(espacio);
    if (!products) {
      products = Object.freeze(this.selectAll.all(espacio).map((r) => Object.freeze(JSON.parse(r.data) as Product)));
      this.cache.set(espacio, products);
    }
    return products;
  }

  get(espacio: string, id: string): Product | null {
    const row = this.selectOne.get(espacio, id);
    return row ? (JSON.parse(row.data) as Product) : null;
  }

  /** Creates or replaces one product; true when it was new. */
  put(espacio: string, product: Product): boolean {
    const created = this.storage.transaction(() => {
      const isNew = this.selectOne.get(espacio, product.id) === undefined;
      this.upsert.run(espacio, product.id, JSON.stringify(product), this.now());
      return isNew;
    })();
    this.cache.delete(espacio);
    return created;
  }

  delete(espacio: string, id: string): boolean {
    const changed = this.remove.run(espacio, id).changes > 0;
    if (changed) this.cache.delete(espacio);
    return changed;
  }

  /**
   * Stores imported products in one transaction. `combinar` creates or replaces by id and keeps the rest;
   * `reemplazar` leaves the catalog holding exactly these products.
   */
  import(espacio: string, products: readonly Product[], mode: ImportMode): ImportCounts {
    const counts = this.storage.transaction(() => {
      const counts = this.importCounts(espacio, products, mode);
      if (mode === 'reemplazar') this.removeAll.run(espacio);
      const now = this.now();
      for (const p of products) this.upsert.run(espacio, p.id, JSON.stringify(p), now);
      return counts;
    })();
    this.cache.delete(espacio);
    return counts;
  }

  /** What `import` would do to the catalog, without changing it (the console's preview before committing). */
  importCounts(espacio: string, products: readonly Product[], mode: ImportMode): ImportCounts {
    const before = new Set(this.products(espacio).map((p) => p.id));
    const incoming = new Set(products.map((p) => p.id));
    const eliminados = mode === 'reemplazar' ? [...before].filter((id) => !incoming.has(id)).length : 0;
    const creados = products.filter((p) => !before.has(p.id)).length;
    return { creados, actualizados: products.length - creados, eliminados };
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

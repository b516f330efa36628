// The space's catalog in SQLite, and the agent's CatalogSource over it. The agent caches its
// matcher per catalog array (WeakMap by identity), so `products()` hands out the same frozen array
// while the catalog is unchanged and a new one after any write (see agent/README.md).
import type { Clock, PluginDatabase, SqlSession } from '@cerebro/sdk';
import type { CatalogSource, Product } from '../agent/index.js';

export type ImportMode = 'combinar' | 'reemplazar';

export interface ImportCounts {
  creados: number;
  actualizados: number;
  eliminados: number;
}

const SELECT_ONE = 'SELECT data FROM ventas_products WHERE space_id = ? AND id = ?';
const UPSERT =
  'INSERT INTO ventas_products (space_id, id, data, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (space_id, id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at';

export class CatalogStore implements CatalogSource {
  private readonly cache = new Map<string, readonly Product[]>();
  /** Counts writes, so a read that overlapped one does not cache what it read before it. */
  private writes = 0;

  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  /** Every product of the space, in insertion order; the same array until the next write. */
  async products(espacio: string): Promise<readonly Product[]> {
    const cached = this.cache.get(espacio);
    if (cached) return cached;
    const writesBefore = this.writes;
    const rows = await this.db.query<{ data: string }>(
      'SELECT data FROM ventas_products WHERE space_id = ? ORDER BY rowid',
      [espacio],
    );
    const products = Object.freeze(rows.map((r) => Object.freeze(JSON.parse(r.data) as Product)));
    if (this.writes === writesBefore) this.cache.set(espacio, products);
    return products;
  }

  async get(espacio: string, id: string): Promise<Product | null> {
    const row = await this.db.queryOne<{ data: string }>(SELECT_ONE, [espacio, id]);
    return row ? (JSON.parse(row.data) as Product) : null;
  }

  /** Creates or replaces one product; true when it was new. */
  async put(espacio: string, product: Product): Promise<boolean> {
    const created = await this.db.transaction(async (tx) => {
      const isNew = (await tx.queryOne(SELECT_ONE, [espacio, product.id])) === undefined;
      await tx.execute(UPSERT, [espacio, product.id, JSON.stringify(product), this.now()]);
      return isNew;
    });
    this.forget(espacio);
    return created;
  }

  async delete(espacio: string, id: string): Promise<boolean> {
    const { changes } = await this.db.execute('DELETE FROM ventas_products WHERE space_id = ? AND id = ?', [
      espacio,
      id,
    ]);
    if (changes > 0) this.forget(espacio);
    return changes > 0;
  }

  /**
   * Stores imported products in one transaction. `combinar` creates or replaces by id and keeps the rest;
   * `reemplazar` leaves the catalog holding exactly these products.
   */
  async import(espacio: string, products: readonly Product[], mode: ImportMode): Promise<ImportCounts> {
    const counts = await this.db.transaction(async (tx) => {
      const counts = await countsIn(tx, espacio, products, mode);
      if (mode === 'reemplazar') await tx.execute('DELETE FROM ventas_products WHERE space_id = ?', [espacio]);
      const now = this.now();
      for (const p of products) await tx.execute(UPSERT, [espacio, p.id, JSON.stringify(p), now]);
      return counts;
    });
    this.forget(espacio);
    return counts;
  }

  /** What `import` would do to the catalog, without changing it (the console's preview before committing). */
  importCounts(espacio: string, products: readonly Product[], mode: ImportMode): Promise<ImportCounts> {
    return countsIn(this.db, espacio, products, mode);
  }

  private forget(espacio: string): void {
    this.writes++;
    this.cache.delete(espacio);
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

/** Created, replaced and removed products of an import, counted against the catalog as `session` sees it. */
async function countsIn(
  session: SqlSession,
  espacio: string,
  products: readonly Product[],
  mode: ImportMode,
): Promise<ImportCounts> {
  const rows = await session.query<{ id: string }>('SELECT id FROM ventas_products WHERE space_id = ?', [espacio]);
  const before = new Set(rows.map((r) => r.id));
  const incoming = new Set(products.map((p) => p.id));
  const eliminados = mode === 'reemplazar' ? [...before].filter((id) => !incoming.has(id)).length : 0;
  const creados = products.filter((p) => !before.has(p.id)).length;
  return { creados, actualizados: products.length - creados, eliminados };
}

import { apiError, Reply, validationError, type RouteHandler } from '@cerebro/sdk';
import { parseCatalogCsv, validateProduct } from '../agent/index.js';
import type { CatalogStore, ImportMode } from '../store/catalog-store.js';
import { fieldIssues, pageOf } from './validation.js';

const PRODUCT_NOT_FOUND = 'Producto no encontrado.';

/** The catalog: list, read, create or replace, delete, and import from CSV. */
export function catalogHandlers(catalog: CatalogStore) {
  return {
    listProducts: async (req) => {
      const page = pageOf(req);
      const all = await catalog.products(req.space.id);
      return { productos: all.slice(page.desde, page.desde + page.limite), total: all.length, ...page };
    },

    getProduct: async (req) => {
      const product = await catalog.get(req.space.id, req.params.producto);
      if (!product) throw apiError('not_found', PRODUCT_NOT_FOUND);
      return product;
    },

    putProduct: async (req) => {
      const body = req.body as Record<string, unknown>;
      const id = req.params.producto;
      if (body.id !== undefined && body.id !== id) {
        throw validationError([
          { loc: ['body', 'id'], msg: 'id: debe coincidir con el id de la ruta', type: 'value_error' },
        ]);
      }
      const result = validateProduct({ ...body, id });
      if (!result.ok) {
        // A bad id can only come from the path here: name it there.
        throw validationError(
          result.errores.map((e) =>
            e.campo === 'id' ? { loc: ['path', 'producto'], msg: e.mensaje, type: 'value_error' } : fieldIssues([e])[0],
          ),
        );
      }
      const created = await catalog.put(req.space.id, result.product);
      return Reply.json(created ? 201 : 200, result.product);
    },

    deleteProduct: async (req) => {
      if (!(await catalog.delete(req.space.id, req.params.producto))) throw apiError('not_found', PRODUCT_NOT_FOUND);
      return Reply.empty(204);
    },

    importProducts: async (req) => {
      // Fields, types and the `modo` values were checked by the host against IMPORT_SCHEMA.
      const body = req.body as { csv: string; modo?: ImportMode; parcial?: boolean; simular?: boolean };
      if (body.csv.trim() === '') {
        throw validationError([
          { loc: ['body', 'csv'], msg: 'csv: debe ser el texto del archivo CSV, con encabezado', type: 'missing' },
        ]);
      }
      const modo = body.modo ?? 'combinar';
      const parcial = body.parcial ?? false;
      const parsed = parseCatalogCsv(body.csv);
      if (body.simular === true) {
        // A dry run: every bad line and what the good ones would do, so a person can fix the file before committing.
        return {
          importados: parsed.productos.length,
          ...(await catalog.importCounts(req.space.id, parsed.productos, modo)),
          errores: parsed.errores,
          simulado: true,
        };
      }
      if (parsed.errores.length > 0 && (!parcial || parsed.productos.length === 0)) {
        // All or nothing by default: a catalog half imported would have the agent quote from the wrong prices.
        // Even with `parcial`, a file with no valid line (bad header, say) changes nothing.
        throw validationError(
          parsed.errores.map((e) => ({
            loc: ['body', 'csv', e.linea],
            msg: `línea ${e.linea}: ${e.mensaje}`,
            type: 'csv_linea',
          })),
        );
      }
      const counts = await catalog.import(req.space.id, parsed.productos, modo);
      return { importados: parsed.productos.length, ...counts, errores: parsed.errores };
    },
  } satisfies Record<string, RouteHandler>;
}

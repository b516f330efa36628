import { apiError, Reply, validationError, type RouteHandler, type ValidationIssue } from '@cerebro/sdk';
import { parseCatalogCsv, validateProduct } from '../agent/index.js';
import type { CatalogStore, ImportMode } from '../store/catalog-store.js';
import { fieldIssues, isObject, pageOf } from './validation.js';

const PRODUCT_NOT_FOUND = 'Producto no encontrado.';
const IMPORT_FIELDS = ['csv', 'modo', 'parcial'];
const MODES: ImportMode[] = ['combinar', 'reemplazar'];

/** The catalog: list, read, create or replace, delete, and import from CSV. */
export function catalogHandlers(catalog: CatalogStore): Record<string, RouteHandler> {
  return {
    listProducts: (req) => {
      const page = pageOf(req, 100, 1000);
      const all = catalog.products(req.space.id);
      return { productos: all.slice(page.desde, page.desde + page.limite), total: all.length, ...page };
    },

    getProduct: (req) => {
      const product = catalog.get(req.space.id, req.params.producto);
      if (!product) throw apiError('not_found', PRODUCT_NOT_FOUND);
      return product;
    },

    putProduct: (req) => {
      const body: unknown = req.body;
      if (!isObject(body)) throw validationError([{ loc: ['body'], msg: 'el producto debe ser un objeto JSON', type: 'dict_type' }]);
      const id = req.params.producto;
      if (body.id !== undefined && body.id !== id) {
        throw validationError([{ loc: ['body', 'id'], msg: 'id: debe coincidir con el id de la ruta', type: 'value_error' }]);
      }
      const result = validateProduct({ ...body, id });
      if (!result.ok) {
        // A bad id can only come from the path here: name it there.
        throw validationError(result.errores.map((e) => (e.campo === 'id'
          ? { loc: ['path', 'producto'], msg: e.mensaje, type: 'value_error' }
          : fieldIssues([e])[0])));
      }
      const created = catalog.put(req.space.id, result.product);
      return Reply.json(created ? 201 : 200, result.product);
    },

    deleteProduct: (req) => {
      if (!catalog.delete(req.space.id, req.params.producto)) throw apiError('not_found', PRODUCT_NOT_FOUND);
      return Reply.empty(204);
    },

    importProducts: (req) => {
      const body: unknown = req.body;
      const issues: ValidationIssue[] = [];
      if (!isObject(body)) throw validationError([{ loc: ['body'], msg: 'el cuerpo debe ser un objeto JSON con `csv`', type: 'dict_type' }]);
      for (const key of Object.keys(body)) {
        if (!IMPORT_FIELDS.includes(key)) issues.push({ loc: ['body', key], msg: `${key}: campo desconocido`, type: 'extra_forbidden' });
      }
      if (typeof body.csv !== 'string' || body.csv.trim() === '') {
        issues.push({ loc: ['body', 'csv'], msg: 'csv: debe ser el texto del archivo CSV, con encabezado', type: 'missing' });
      }
      const modo = (body.modo ?? 'combinar') as ImportMode;
      if (!MODES.includes(modo)) issues.push({ loc: ['body', 'modo'], msg: 'modo: debe ser "combinar" o "reemplazar"', type: 'enum' });
      const parcial = body.parcial ?? false;
      if (typeof parcial !== 'boolean') issues.push({ loc: ['body', 'parcial'], msg: 'parcial: debe ser verdadero o falso', type: 'bool_type' });
      if (issues.length > 0) throw validationError(issues);

      const parsed = parseCatalogCsv(body.csv as string);
      if (parsed.errores.length > 0 && (!parcial || parsed.productos.length === 0)) {
        // All or nothing by default: a catalog half imported would have the agent quote from the wrong prices.
        // Even with `parcial`, a file with no valid line (bad header, say) changes nothing.
        throw validationError(parsed.errores.map((e) => ({ loc: ['body', 'csv', e.linea], msg: `línea ${e.linea}: ${e.mensaje}`, type: 'csv_linea' })));
      }
      const counts = catalog.import(req.space.id, parsed.productos, modo);
      return { importados: parsed.productos.length, ...counts, errores: parsed.errores };
    },
  };
}

// Catalog import from CSV. Written by hand (RFC 4180 quoting, BOM, CRLF) because the import
// needs the physical line of every record for its error messages and must guess `;` vs `,`:
// spreadsheets set to Spanish export with `;` and decimal commas.
//
// Columns (header required, any order, case and accents ignored):
//   id, nombre, descripcion, precio, moneda, stock, envio
// `envio` lists city costs separated by `|`, each `ciudad=costo` (or `ciudad:costo`),
// e.g. `Bogotá=8000|Medellín=12000`. `descripcion` and `envio` may be empty.
import { validateProduct, type Product } from './catalog.js';
import { parseAmount } from '@cerebro/sdk';
import { fold } from './text.js';

export interface CsvLineError {
  /** 1-based physical line in the file where the record starts (the header is line 1). */
  linea: number;
  mensaje: string;
}

export interface CsvImport {
  productos: Product[];
  errores: CsvLineError[];
}

interface RawRecord {
  line: number;
  cells: string[];
}

function detectDelimiter(firstLine: string): string {
  const count = (ch: string) => firstLine.split(ch).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Splits CSV text into records; quoted cells may hold delimiters, quotes ("") and newlines. */
function records(text: string, delimiter: string): { rows: RawRecord[]; unterminatedAt: number | null } {
  const rows: RawRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let quoteStart = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else if (ch === '\r' && text[i + 1] === '\n')
        continue; // CRLF inside a quoted cell becomes \n
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
      quoteStart = line;
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      rows.push({ line: recordLine, cells });
      cells = [];
      cell = '';
      line++;
      recordLine = line;
    } else cell += ch;
  }
  if (quoted) return { rows, unterminatedAt: quoteStart };
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    rows.push({ line: recordLine, cells });
  }
  return { rows, unterminatedAt: null };
}

const COLUMNS = ['id', 'nombre', 'descripcion', 'precio', 'moneda', 'stock', 'envio'] as const;
const REQUIRED = ['id', 'nombre', 'precio', 'moneda', 'stock'];

function parseNumberCell(cell: string): number | string {
  const amount = parseAmount(cell.trim().replace(/^\$/, ''));
  return amount === null ? cell : amount;
}

function parseEnvio(cell: string): Record<string, number> | string {
  const out: [string, number][] = [];
  for (const part of cell.split('|')) {
    if (part.trim() === '') continue;
    const m = /^(.+?)\s*[=:]\s*(.+)$/.exec(part.trim());
    const cost = m ? parseAmount(m[2].replace(/^\$/, '')) : null;
    if (!m || cost === null) return `envío «${part.trim()}» no tiene la forma ciudad=costo`;
    out.push([m[1].trim(), cost]);
  }
  // fromEntries defines own properties: a city written `__proto__` stays a city.
  return Object.fromEntries(out);
}

/** Parses a catalog CSV; every bad line is reported with its number and the products that are fine are returned. */
export function parseCatalogCsv(text: string): CsvImport {
  const errors: CsvLineError[] = [];
  const clean = text.replace(/^\uFEFF/, '');
  const firstLine = clean.split(/\r?\n/, 1)[0] ?? '';
  const { rows, unterminatedAt } = records(clean, detectDelimiter(firstLine));
  if (unterminatedAt !== null) errors.push({ linea: unterminatedAt, mensaje: 'comillas sin cerrar' });
  const nonEmpty = rows.filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (nonEmpty.length === 0) return { productos: [], errores: [{ linea: 1, mensaje: 'el archivo está vacío' }] };

  const header = nonEmpty[0];
  const index = new Map<string, number>();
  header.cells.forEach((c, i) => index.set(fold(c).replace(/ /g, '_'), i));
  const missing = REQUIRED.filter((c) => !index.has(c));
  const unknown = [...index.keys()].filter((k) => !(COLUMNS as readonly string[]).includes(k));
  if (missing.length > 0 || unknown.length > 0) {
    const parts = [];
    if (missing.length > 0) parts.push(`faltan columnas: ${missing.join(', ')}`);
    if (unknown.length > 0) parts.push(`columnas desconocidas: ${unknown.join(', ')}`);
    return { productos: [], errores: [{ linea: header.line, mensaje: parts.join('; ') }] };
  }

  const products: Product[] = [];
  const seen = new Map<string, number>();
  for (const row of nonEmpty.slice(1)) {
    if (row.cells.length !== header.cells.length) {
      errors.push({
        linea: row.line,
        mensaje: `tiene ${row.cells.length} columnas y el encabezado ${header.cells.length}`,
      });
      continue;
    }
    const cell = (name: string) => (index.has(name) ? row.cells[index.get(name)!].trim() : '');
    const shipping = cell('envio') === '' ? undefined : parseEnvio(cell('envio'));
    if (typeof shipping === 'string') {
      errors.push({ linea: row.line, mensaje: shipping });
      continue;
    }
    const result = validateProduct({
      id: cell('id'),
      nombre: cell('nombre'),
      descripcion: cell('descripcion'),
      precio: parseNumberCell(cell('precio')),
      moneda: cell('moneda'),
      stock: parseNumberCell(cell('stock')),
      envio: shipping,
    });
    if (!result.ok) {
      errors.push({ linea: row.line, mensaje: result.errores.map((e) => e.mensaje).join('; ') });
      continue;
    }
    const first = seen.get(result.product.id);
    if (first !== undefined) {
      errors.push({ linea: row.line, mensaje: `id: «${result.product.id}» repetido (ya en la línea ${first})` });
      continue;
    }
    seen.set(result.product.id, row.line);
    products.push(result.product);
  }
  return { productos: products, errores: errors };
}

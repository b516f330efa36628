// Tables in PDF text. Plain pdftotext reads a table column by column (every cell on a line of its own, rows lost);
// with -layout it keeps each row on one line, cells separated by runs of spaces at aligned columns. This finds such
// aligned runs of short cells in a page's layout text, so their rows become table-row blocks, and tells which lines
// of the plain text were those cells, so they are not read again as a run of fragments.

/** Cells of a layout line: text separated by 2+ spaces. */
const cellsOf = (line: string) => line.trim().split(/\s{2,}/);
/** Start columns of a layout line's cells. */
function starts(line: string): number[] {
  const out: number[] = [];
  for (const m of line.matchAll(/(?:^|\s{2,})(\S)/g)) out.push(m.index! + m[0].length - 1);
  return out;
}

export interface PdfTable {
  header: string[];
  rows: string[][];
}

/** Rows of a table have this many lines at least (header included). */
const MIN_LINES = 3;
/** Cells of running text laid out in two columns are long; table cells are short. */
const MAX_MEAN_CELL = 40;

/** Dot leaders ("Capítulo 2 . . . . 14") mark a table of contents: page furniture, not data. */
const LEADER = /(\.\s?){4,}/;

const aligned = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) <= 2);

/** Aligned runs of short multi-cell lines in one page of `pdftotext -layout` output; the first line is the header. */
export function layoutTables(page: string): PdfTable[] {
  const tables: PdfTable[] = [];
  const lines = page.split('\n');
  let run: string[] = [];
  let columns: number[] = [];
  const close = () => {
    const rows = run.map(cellsOf);
    const cells = rows.flat();
    const mean = cells.reduce((n, c) => n + c.length, 0) / Math.max(1, cells.length);
    if (run.length >= MIN_LINES && mean <= MAX_MEAN_CELL && !cells.some((c) => LEADER.test(c)))
      tables.push({ header: rows[0]!, rows: rows.slice(1) });
    run = [];
    columns = [];
  };
  for (const line of lines) {
    const s = starts(line);
    if (s.length >= 2 && (run.length === 0 || aligned(s, columns))) {
      if (run.length === 0) columns = s;
      run.push(line);
      continue;
    }
    close();
    if (s.length >= 2) {
      columns = s;
      run.push(line);
    }
  }
  close();
  return tables;
}

/** The plain text of a page without the lines that were the cells of its tables (each cell removed once). */
export function withoutCells(plain: string, tables: PdfTable[]): string {
  const pending = new Map<string, number>();
  for (const t of tables) for (const c of [...t.header, ...t.rows.flat()]) pending.set(c, (pending.get(c) ?? 0) + 1);
  return plain
    .split('\n')
    .filter((line) => {
      const key = line.trim();
      const n = pending.get(key) ?? 0;
      if (n === 0) return true;
      pending.set(key, n - 1);
      return false;
    })
    .join('\n');
}

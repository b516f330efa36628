// CSV and XLSX: each row becomes a table-row block with the first row as its header, so that a row is retrievable
// and quotable on its own and a question naming a column finds its rows. The sheet name is the block's heading.
// The XLSX reader lives in xlsx.ts: exceljs costs ~27 MB per thread, and a CSV must not pay for it.
import { parse } from 'csv-parse/sync';
import { CerebroExtractionError, reasons } from '../errors.js';
import { oneLine } from '../text/normalize.js';
import { tableRow, type ExtractedDocument, type TextBlock } from './types.js';

/** Table-row blocks from rows of cells, the first non-empty row being the header. */
export function rowsToBlocks(rows: string[][], heading?: string): TextBlock[] {
  const nonEmpty = rows.filter((r) => r.some((c) => c.trim() !== ''));
  if (nonEmpty.length === 0) return [];
  const [header, ...body] = nonEmpty as [string[], ...string[][]];
  const names = header.map((h) => oneLine(h));
  const headings = heading ? [heading] : [];
  if (body.length === 0) return [{ text: names.filter(Boolean).join('; '), headings }];
  const blocks: TextBlock[] = [];
  for (const row of body) {
    const block = tableRow(row.map((c) => oneLine(c)), names, undefined, headings);
    if (block) blocks.push(block);
  }
  return blocks;
}

export function csvToDocument(text: string): ExtractedDocument {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const counts = [',', ';', '\t', '|'].map((d) => [d, firstLine.split(d).length] as const);
  const delimiter = counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  let rows: string[][];
  try {
    rows = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true });
  } catch {
    throw new CerebroExtractionError('corrupto', reasons.corrupt('CSV'));
  }
  return { blocks: rowsToBlocks(rows) };
}

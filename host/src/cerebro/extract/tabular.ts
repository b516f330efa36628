// CSV and XLSX: each row becomes a table-row block with the first row as its header, so that a row is retrievable
// and quotable on its own and a question naming a column finds its rows. The sheet name is the block's heading.
// The XLSX reader lives in xlsx.ts: exceljs costs ~27 MB per thread, and a CSV must not pay for it. Indexing reads
// a CSV as a stream (csv-stream.ts); csvToDocument reads one whole.
import { parse } from 'csv-parse/sync';
import { CerebroExtractionError, reasons } from '../errors.js';
import { oneLine } from '../text/normalize.js';
import { tableRow, type ExtractedDocument, type TextBlock } from './types.js';

/** Turns rows, one at a time, into table-row blocks: the first non-empty row is the header of the rest. */
export class TableRows {
  private names: string[] | null = null;
  private bodyRows = 0;
  private readonly headings: string[];

  constructor(heading?: string) {
    this.headings = heading ? [heading] : [];
  }

  /** The row's block, or null for an empty row, the header, or a row with nothing to say. */
  add(row: string[]): TextBlock | null {
    if (!row.some((c) => c.trim() !== '')) return null;
    if (!this.names) {
      this.names = row.map((h) => oneLine(h));
      return null;
    }
    this.bodyRows++;
    return tableRow(
      row.map((c) => oneLine(c)),
      this.names,
      undefined,
      this.headings,
    );
  }

  /** A table that is only a header still says something: its column names, as one block. */
  finish(): TextBlock[] {
    return this.names && this.bodyRows === 0
      ? [{ text: this.names.filter(Boolean).join('; '), headings: this.headings }]
      : [];
  }
}

export function rowsToBlocks(rows: string[][], heading?: string): TextBlock[] {
  const table = new TableRows(heading);
  const blocks: TextBlock[] = [];
  for (const row of rows) {
    const block = table.add(row);
    if (block) blocks.push(block);
  }
  return [...blocks, ...table.finish()];
}

/** The separator that splits the first line into the most fields: `,`, `;`, tab or `|`. */
export function csvDelimiter(firstLine: string): string {
  const counts = [',', ';', '\t', '|'].map((d) => [d, firstLine.split(d).length] as const);
  return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** csv-parse options shared by the whole-file and the streaming reader. */
export const csvOptions = (delimiter: string) => ({
  delimiter,
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  bom: true,
});

export function csvToDocument(text: string): ExtractedDocument {
  let rows: string[][];
  try {
    rows = parse(text, csvOptions(csvDelimiter(text.slice(0, text.indexOf('\n') >>> 0))));
  } catch {
    throw new CerebroExtractionError('corrupto', reasons.corrupt('CSV'));
  }
  return { blocks: rowsToBlocks(rows) };
}

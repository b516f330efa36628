// CSV and XLSX: each row becomes a table-row block with the first row as its header, so that a row is retrievable
// and quotable on its own and a question naming a column finds its rows. The sheet name is the block's heading.
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { CerebroExtractionError, reasons } from '../errors.js';
import { oneLine } from '../text/normalize.js';
import { tableRow, type ExtractedDocument, type TextBlock } from './types.js';

function rowsToBlocks(rows: string[][], heading?: string): TextBlock[] {
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

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
    return '';
  }
  return String(value);
}

export async function xlsxToDocument(bytes: Buffer): Promise<ExtractedDocument> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new CerebroExtractionError('corrupto', reasons.corrupt('XLSX'));
  }
  const blocks: TextBlock[] = [];
  workbook.eachSheet((sheet) => {
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => { cells[col - 1] = cellText(cell.value); });
      rows.push(Array.from(cells, (c) => c ?? ''));
    });
    blocks.push(...rowsToBlocks(rows, sheet.name));
  });
  return { blocks };
}

// XLSX with exceljs, one sheet at a time, rows as table-row blocks headed by the sheet name (see tabular.ts).
// Only extract.ts's XLSX path imports this module, and lazily: exceljs adds ~27 MB to whichever thread loads it.
import ExcelJS from 'exceljs';
import { CerebroExtractionError, reasons } from '../errors.js';
import { rowsToBlocks } from './tabular.js';
import type { ExtractedDocument, TextBlock } from './types.js';

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
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
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = cellText(cell.value);
      });
      rows.push(Array.from(cells, (c) => c ?? ''));
    });
    blocks.push(...rowsToBlocks(rows, sheet.name));
  });
  return { blocks };
}

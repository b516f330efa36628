// PDF text per page with poppler's pdftotext (Debian poppler-utils): faster and more faithful than JS parsers here.
// Pages come out separated by form feeds; tables come from a second, -layout pass (pdf-tables.ts); pages without a
// text layer go to OCR (ocr.ts). The chunker NFC-normalises each page's text (TeX emits decomposed accents).
import { CerebroExtractionError, reasons } from '../errors.js';
import { structureLines } from './line-structure.js';
import { readScannedPages } from './ocr.js';
import { layoutTables, withoutCells, type PdfTable } from './pdf-tables.js';
import { runTool } from './run-tool.js';
import { tableRow, type ExtractedDocument, type TextBlock } from './types.js';

/**
 * Most text a PDF may yield (pdftotext's UTF-8 output, each pass): the pages are held in memory together (running
 * lines are found across them), so this bounds the memory of a PDF whatever its size. 3,000 dense pages are ~14 MB.
 */
export const PDF_MAX_TEXT_BYTES = 32 * 1024 * 1024;

/** Page header/footer shape: digits vary from page to page ("Guía 120 / 244"), the rest repeats. */
const lineShape = (line: string) => line.trim().replace(/\d+/g, '#');

/**
 * Removes running headers and footers: lines among the first or last two of a page whose shape repeats on at least
 * 30% of the pages. They would otherwise pollute passages and answers ("Guía de referencia de Debian 120 / 244").
 */
export function stripRunningLines(pages: string[]): string[] {
  if (pages.length < 3) return pages;
  const edges = (lines: string[]) => [...lines.slice(0, 2), ...lines.slice(-2)].map(lineShape).filter(Boolean);
  const split = pages.map((p) => p.split('\n').filter((l) => l.trim() !== ''));
  const counts = new Map<string, number>();
  for (const lines of split) for (const shape of new Set(edges(lines))) counts.set(shape, (counts.get(shape) ?? 0) + 1);
  const running = new Set([...counts].filter(([, n]) => n >= Math.max(3, pages.length * 0.3)).map(([shape]) => shape));
  if (running.size === 0) return pages;
  return pages.map((page) => {
    const lines = page.split('\n');
    const nonEmpty = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim() !== '');
    const edgeIdx = new Set([...nonEmpty.slice(0, 2), ...nonEmpty.slice(-2)].map(([, i]) => i));
    return lines.filter((l, i) => !(edgeIdx.has(i) && running.has(lineShape(l)))).join('\n');
  });
}

/** Share of a table's cells that must stand as lines of their own in the plain text for the table to be believed. */
const CONFIRMED_CELLS = 0.8;

/**
 * Tables of each page from a second, -layout pass (see pdf-tables.ts), kept only where plain pdftotext also split
 * the cells into lines of their own: justified prose or a two-column page never looks like that.
 */
async function pageTables(path: string, plainPages: string[], timeoutMs: number, maxTextBytes: number): Promise<PdfTable[][]> {
  const { stdout, code } = await runTool('pdftotext', ['-layout', '-enc', 'UTF-8', '-eol', 'unix', path, '-'], {
    timeoutMs, debianPackage: 'poppler-utils', maxStdoutBytes: maxTextBytes,
  });
  // A failed or oversized layout pass (its padding can outgrow the plain text) only costs the tables.
  if (code !== 0) return plainPages.map(() => []);
  const layout = stdout.split('\f');
  return plainPages.map((plain, i) => {
    const lines = new Set(plain.split('\n').map((l) => l.trim()));
    return layoutTables(layout[i] ?? '').filter((t) => {
      const cells = [...t.header, ...t.rows.flat()];
      return cells.filter((c) => lines.has(c)).length >= cells.length * CONFIRMED_CELLS;
    });
  });
}

export async function pdfToDocument(path: string, timeoutMs = 0, maxTextBytes = PDF_MAX_TEXT_BYTES): Promise<ExtractedDocument> {
  const { stdout, stderr, code, killed, overflow } = await runTool('pdftotext', ['-enc', 'UTF-8', '-eol', 'unix', path, '-'], {
    timeoutMs, debianPackage: 'poppler-utils', maxStdoutBytes: maxTextBytes,
  });
  if (killed) throw new CerebroExtractionError('tiempo_agotado', reasons.timeout(Math.round(timeoutMs / 1000)));
  if (overflow) throw new CerebroExtractionError('demasiado_grande', reasons.pdfTooMuchText(Math.round(maxTextBytes / (1024 * 1024))));
  if (code !== 0) {
    if (/password|encrypt/i.test(stderr)) throw new CerebroExtractionError('cifrado', reasons.encrypted);
    throw new CerebroExtractionError('corrupto', reasons.corrupt('PDF'));
  }
  const raw = stdout.split('\f');
  if (raw.length > 1 && raw[raw.length - 1]!.trim() === '') raw.pop();
  // Pages without a text layer (scanned) are read with OCR, keeping their page numbers.
  const pages = await readScannedPages(path, stripRunningLines(raw), timeoutMs);
  const tables = await pageTables(path, pages, timeoutMs, maxTextBytes);
  const blocks: TextBlock[] = [];
  pages.forEach((plain, i) => {
    const page = i + 1;
    for (const para of withoutCells(plain, tables[i]!).split(/\n\s*\n/)) {
      if (para.trim()) for (const b of structureLines(para)) blocks.push({ ...b, page });
    }
    for (const t of tables[i]!) {
      for (const row of t.rows) {
        const block = tableRow(row, t.header, undefined, []);
        if (block) blocks.push({ ...block, page });
      }
    }
  });
  if (blocks.length === 0) throw new CerebroExtractionError('vacio', reasons.pdfNoText);
  return { blocks, pages: pages.length };
}

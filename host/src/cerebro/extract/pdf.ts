// PDF text per page with poppler's pdftotext (Debian poppler-utils): faster and more faithful than JS parsers here.
// Pages come out separated by form feeds; tables come from a second, -layout pass (pdf-tables.ts); pages without a
// text layer go to OCR (ocr.ts). The chunker NFC-normalises each page's text (TeX emits decomposed accents).
import { CerebroExtractionError, reasons } from '../errors.js';
import { structureLines } from './line-structure.js';
import { OCR_LIMITS, readScannedPages } from './ocr.js';
import { layoutTables, withoutCells, type PdfTable } from './pdf-tables.js';
import { readStart } from './read-start.js';
import { inJob } from './job-scope.js';
import { runTool, type ToolResult } from './run-tool.js';
import { tableRow, type ExtractedDocument, type TextBlock } from './types.js';

/**
 * Most text a PDF may yield (pdftotext's UTF-8 output, all pages together): its blocks are what the chunker
 * receives, so this bounds the work and memory of a PDF whatever its size. 3,000 dense pages are ~14 MB.
 */
export const PDF_MAX_TEXT_BYTES = 32 * 1024 * 1024;
/**
 * Time limit of one poppler run (pdfinfo, or pdftotext over one range of pages): pdftotext reads the 272-page
 * Debian reference in 0.6 s, so this only stops a tool stuck on a hostile file. Never past what the job has left.
 */
export const PDF_TOOL_TIMEOUT_MS = 120_000;

const outOfTime = (run: ToolResult) =>
  new CerebroExtractionError('tiempo_agotado', reasons.timeout(Math.max(1, Math.round(run.timeoutMs / 1000))));

/**
 * Pages read per pdftotext run: the text of a range (and of its -layout pass) is all that is held at once, so a
 * 3,000-page PDF never exists as one 14 MB string twice over. Large enough for running headers to repeat within it.
 */
export const PDF_PAGES_PER_RANGE = 200;

const PDF_MAGIC = Buffer.from('%PDF');

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
async function pageTables(
  path: string,
  range: PageRange,
  plainPages: string[],
  maxTextBytes: number,
): Promise<PdfTable[][]> {
  const { stdout, code } = await runTool(
    'pdftotext',
    ['-layout', ...rangeArgs(range), '-enc', 'UTF-8', '-eol', 'unix', path, '-'],
    {
      timeoutMs: PDF_TOOL_TIMEOUT_MS,
      debianPackage: 'poppler-utils',
      maxStdoutBytes: maxTextBytes,
    },
  );
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

interface PageRange {
  first: number;
  last: number;
}
const rangeArgs = (r: PageRange) => ['-f', String(r.first), '-l', String(r.last)];

/** 1..pages cut into ranges of at most PDF_PAGES_PER_RANGE pages, balanced so the last one is not a lone page. */
export function pageRanges(pages: number, perRange = PDF_PAGES_PER_RANGE): PageRange[] {
  const count = Math.max(1, Math.ceil(pages / perRange));
  const size = Math.ceil(pages / count);
  const ranges: PageRange[] = [];
  for (let first = 1; first <= pages; first += size) ranges.push({ first, last: Math.min(pages, first + size - 1) });
  return ranges;
}

/** The page count from pdfinfo, which also tells an encrypted or damaged PDF before any text is read. */
async function pageCount(path: string): Promise<number> {
  const run = await runTool('pdfinfo', [path], { timeoutMs: PDF_TOOL_TIMEOUT_MS, debianPackage: 'poppler-utils' });
  const { stdout, stderr, code } = run;
  if (run.killed) throw outOfTime(run);
  if (code !== 0) {
    if (/password|encrypt/i.test(stderr)) throw new CerebroExtractionError('cifrado', reasons.encrypted);
    throw new CerebroExtractionError('corrupto', reasons.corrupt('PDF'));
  }
  const pages = Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? 0);
  if (pages === 0) throw new CerebroExtractionError('vacio', reasons.pdfNoText);
  return pages;
}

/** The blocks of one range of pages: its text (OCR for pages without a text layer), structure and tables. */
async function rangeBlocks(path: string, range: PageRange, text: string, maxTextBytes: number, ocrBudget: number) {
  const raw = text.split('\f').slice(0, range.last - range.first + 1);
  while (raw.length < range.last - range.first + 1) raw.push('');
  // Pages without a text layer (scanned) are read with OCR, keeping their page numbers.
  const scanned = await readScannedPages(path, stripRunningLines(raw), range.first, ocrBudget);
  const tables = await pageTables(path, range, scanned.pages, maxTextBytes);
  const blocks: TextBlock[] = [];
  const read = new Set(scanned.ocrRead);
  scanned.pages.forEach((plain, i) => {
    const page = range.first + i;
    // A page OCR read marks its blocks, so the document viewer can say its text may hold reading errors.
    const where = read.has(page) ? { page, ocr: true } : { page };
    for (const para of withoutCells(plain, tables[i]!).split(/\n\s*\n/)) {
      if (para.trim()) for (const b of structureLines(para)) blocks.push({ ...b, ...where });
    }
    for (const t of tables[i]!) {
      for (const row of t.rows) {
        const block = tableRow(row, t.header, undefined, []);
        if (block) blocks.push({ ...block, ...where });
      }
    }
  });
  return { blocks, ocrPages: scanned.ocrPages, ocrMissing: scanned.ocrMissing };
}

/**
 * Opens a PDF: checks its header and page count at once (encrypted and damaged files fail here), and gives its blocks
 * as they are read, a range of pages at a time, so only one range's text is in memory (prepare.ts chunks them as they
 * come). The blocks end with an error when the document has no text, or more than `maxTextBytes` of it.
 */
export async function openPdf(
  path: string,
  maxTextBytes = PDF_MAX_TEXT_BYTES,
): Promise<{ pages: number; blocks: AsyncGenerator<TextBlock> }> {
  const head = await readStart(path, 1024);
  if (head.length === 0) throw new CerebroExtractionError('vacio', reasons.empty);
  // The PDF header may follow a little junk, but must appear within the first kilobyte.
  if (head.indexOf(PDF_MAGIC) === -1) throw new CerebroExtractionError('corrupto', reasons.corrupt('PDF'));
  const pages = await pageCount(path);
  async function* blocks(): AsyncGenerator<TextBlock> {
    let textBytes = 0;
    let ocrBudget: number = OCR_LIMITS.maxPages;
    let ocrMissing = false;
    let anyText = false;
    for (const range of pageRanges(pages)) {
      const run = await runTool('pdftotext', [...rangeArgs(range), '-enc', 'UTF-8', '-eol', 'unix', path, '-'], {
        timeoutMs: PDF_TOOL_TIMEOUT_MS,
        debianPackage: 'poppler-utils',
        maxStdoutBytes: maxTextBytes - textBytes,
      });
      const { stdout, stderr, code, overflow } = run;
      if (run.killed) throw outOfTime(run);
      textBytes += Buffer.byteLength(stdout);
      if (overflow || textBytes > maxTextBytes)
        throw new CerebroExtractionError(
          'demasiado_grande',
          reasons.pdfTooMuchText(Math.round(maxTextBytes / (1024 * 1024))),
        );
      if (code !== 0) {
        if (/password|encrypt/i.test(stderr)) throw new CerebroExtractionError('cifrado', reasons.encrypted);
        throw new CerebroExtractionError('corrupto', reasons.corrupt('PDF'));
      }
      const read = await rangeBlocks(path, range, stdout, maxTextBytes, ocrBudget);
      ocrBudget -= read.ocrPages;
      ocrMissing ||= read.ocrMissing;
      for (const block of read.blocks) {
        anyText ||= /[\p{L}\p{N}]/u.test(block.text);
        yield block;
      }
    }
    // A wholly scanned PDF on a server without tesseract says what is missing rather than "no text".
    if (!anyText)
      throw new CerebroExtractionError(
        ocrMissing ? 'no_soportado' : 'vacio',
        ocrMissing ? reasons.ocrMissing : reasons.pdfNoText,
      );
  }
  return { pages, blocks: blocks() };
}

/** The whole PDF as one document (every block in memory): for callers that need it at once. */
export async function pdfToDocument(
  path: string,
  timeoutMs = 0,
  maxTextBytes = PDF_MAX_TEXT_BYTES,
): Promise<ExtractedDocument> {
  return inJob({ timeoutMs }, () => wholePdf(path, maxTextBytes));
}

async function wholePdf(path: string, maxTextBytes: number): Promise<ExtractedDocument> {
  const pdf = await openPdf(path, maxTextBytes);
  const blocks: TextBlock[] = [];
  for await (const block of pdf.blocks) blocks.push(block);
  return { blocks, pages: pdf.pages };
}

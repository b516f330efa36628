// OCR with tesseract (Debian tesseract-ocr, -spa, -eng) for scanned PDF pages and uploaded images, inside the
// extraction worker. Bounded: one thread per tesseract (OMP_THREAD_LIMIT=1: the machine is shared), a time limit
// per page that kills the child, PDF pages rendered with pdftoppm at most 2400 px on the long side, at most
// `maxPages` pages per document, and images refused above `maxPixels` per page before anything decodes them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CerebroExtractionError, reasons } from '../errors.js';
import { runTool, ToolMissingError } from './run-tool.js';

export const OCR_LIMITS = {
  languages: 'spa+eng',
  maxPages: 100,
  /** 40 megapixels: an A4 page at 600 dpi is 35. */
  maxPixels: 40_000_000,
  pageTimeoutMs: 120_000,
  renderLongSide: 2400,
} as const;

const hasText = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** The time limit of one page: the job's own limit when it is shorter. */
const pageLimit = (jobTimeoutMs: number) => (jobTimeoutMs > 0 ? Math.min(jobTimeoutMs, OCR_LIMITS.pageTimeoutMs) : OCR_LIMITS.pageTimeoutMs);

/**
 * Text of an image file, one string per page (tesseract separates the pages of a multi-page TIFF with form feeds;
 * their number is bounded by `maxPages` before this runs).
 */
export async function ocrImageFile(path: string, jobTimeoutMs: number): Promise<string[]> {
  const timeoutMs = pageLimit(jobTimeoutMs);
  const { stdout, code, killed } = await runTool('tesseract', [path, 'stdout', '-l', OCR_LIMITS.languages, '--psm', '3'], {
    timeoutMs, debianPackage: 'tesseract-ocr', env: { ...process.env, OMP_THREAD_LIMIT: '1' },
  });
  if (killed) throw new CerebroExtractionError('tiempo_agotado', reasons.timeout(Math.round(timeoutMs / 1000)));
  if (code !== 0) throw new CerebroExtractionError('corrupto', reasons.corrupt('de imagen'));
  const pages = stdout.split('\f');
  if (pages.length > 1 && pages[pages.length - 1]!.trim() === '') pages.pop();
  return pages;
}

/** Pages of a PDF range after OCR, and what OCR could do for them. */
export interface ScannedPages {
  pages: string[];
  /** Pages read with OCR (they count against the document's `maxPages` budget). */
  ocrPages: number;
  /** Some pages had no text layer and tesseract is not installed: they stay empty. */
  ocrMissing: boolean;
}

/**
 * Fills the pages of a PDF that have no text layer with their OCR text (same page numbers). `pages[0]` is page
 * `firstPage`; at most `budget` pages are read. Without tesseract the pages stay as they were and `ocrMissing` says
 * so: the caller decides whether the document had any text at all.
 */
export async function readScannedPages(path: string, pages: string[], jobTimeoutMs: number, firstPage = 1, budget: number = OCR_LIMITS.maxPages): Promise<ScannedPages> {
  const scanned = pages.map((text, i) => (hasText(text) ? 0 : firstPage + i)).filter((n) => n > 0).slice(0, Math.max(0, budget));
  if (scanned.length === 0) return { pages, ocrPages: 0, ocrMissing: false };
  const out = [...pages];
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-ocr-'));
  try {
    for (const page of scanned) {
      const prefix = join(dir, `p${page}`);
      const render = await runTool('pdftoppm', [
        '-f', String(page), '-l', String(page), '-singlefile', '-gray', '-scale-to', String(OCR_LIMITS.renderLongSide), '-png', path, prefix,
      ], { timeoutMs: pageLimit(jobTimeoutMs), debianPackage: 'poppler-utils' });
      if (render.killed) throw new CerebroExtractionError('tiempo_agotado', reasons.timeout(Math.round(pageLimit(jobTimeoutMs) / 1000)));
      if (render.code !== 0) continue; // a page poppler cannot draw is left empty, like pdftotext left it
      out[page - firstPage] = (await ocrImageFile(`${prefix}.png`, jobTimeoutMs)).join('\n\n');
      await rm(`${prefix}.png`, { force: true });
    }
  } catch (err) {
    if (!(err instanceof ToolMissingError)) throw err;
    return { pages, ocrPages: 0, ocrMissing: true };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { pages: out, ocrPages: scanned.length, ocrMissing: false };
}

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

/**
 * Fills the pages of a PDF that have no text layer with their OCR text (same page numbers). Without tesseract,
 * a PDF with some text keeps it; one with none fails with a reason that names the missing package.
 */
export async function readScannedPages(path: string, pages: string[], jobTimeoutMs: number): Promise<string[]> {
  const scanned = pages.map((text, i) => (hasText(text) ? 0 : i + 1)).filter((n) => n > 0).slice(0, OCR_LIMITS.maxPages);
  if (scanned.length === 0) return pages;
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
      out[page - 1] = (await ocrImageFile(`${prefix}.png`, jobTimeoutMs)).join('\n\n');
      await rm(`${prefix}.png`, { force: true });
    }
  } catch (err) {
    if (!(err instanceof ToolMissingError)) throw err;
    if (!pages.some(hasText)) throw new CerebroExtractionError('no_soportado', reasons.ocrMissing);
    return pages;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

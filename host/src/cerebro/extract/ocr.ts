// OCR with tesseract (Debian tesseract-ocr, -spa, -eng) for scanned PDF pages and uploaded images, inside the
// extraction worker. Bounded: one thread per tesseract (OMP_THREAD_LIMIT=1: the machine is shared), a time limit
// per page (a multi-page TIFF gets one per page) and per render that kills the child, never past what is left of
// the job; PDF pages rendered with pdftoppm at most 2400 px on the long side, at most `maxPages` pages per
// document, and images refused above `maxPixels` per page before anything decodes them. Rendered pages go to a
// folder inside the job's own, which the job's owner removes even when the worker is terminated mid-page.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CerebroExtractionError, reasons } from '../errors.js';
import { jobTempDir } from './job-scope.js';
import { runTool, ToolMissingError, type ToolResult } from './run-tool.js';

export const OCR_LIMITS = {
  languages: 'spa+eng',
  maxPages: 100,
  /** 40 megapixels: an A4 page at 600 dpi is 35. */
  maxPixels: 40_000_000,
  /** tesseract's time limit per page. */
  pageTimeoutMs: 120_000,
  /** pdftoppm's time limit per page. */
  renderTimeoutMs: 60_000,
  renderLongSide: 2400,
} as const;

const hasText = (text: string) => /[\p{L}\p{N}]/u.test(text);

const outOfTime = (run: ToolResult) =>
  new CerebroExtractionError('tiempo_agotado', reasons.timeout(Math.max(1, Math.round(run.timeoutMs / 1000))));

/** tesseract's own limit for an image of `pages` pages (one read covers them all): each page has its time. */
export const ocrTimeoutMs = (pages: number): number =>
  OCR_LIMITS.pageTimeoutMs * Math.max(1, Math.min(pages, OCR_LIMITS.maxPages));

/**
 * Text of an image file, one string per page (tesseract separates the pages of a multi-page TIFF with form feeds;
 * their number, `pages`, is bounded by `maxPages` before this runs, and each page has its own time).
 */
export async function ocrImageFile(path: string, pages = 1): Promise<string[]> {
  const run = await runTool('tesseract', [path, 'stdout', '-l', OCR_LIMITS.languages, '--psm', '3'], {
    timeoutMs: ocrTimeoutMs(pages),
    debianPackage: 'tesseract-ocr',
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
  });
  if (run.killed) throw outOfTime(run);
  if (run.code !== 0) throw new CerebroExtractionError('corrupto', reasons.corrupt('de imagen'));
  const texts = run.stdout.split('\f');
  if (texts.length > 1 && texts[texts.length - 1]!.trim() === '') texts.pop();
  return texts;
}

/** Pages of a PDF range after OCR, and what OCR could do for them. */
export interface ScannedPages {
  pages: string[];
  /** Pages read with OCR (they count against the document's `maxPages` budget). */
  ocrPages: number;
  /** The numbers of the pages whose text OCR gave (the document viewer marks their passages). */
  ocrRead: number[];
  /** Some pages had no text layer and tesseract is not installed: they stay empty. */
  ocrMissing: boolean;
}

/**
 * Fills the pages of a PDF that have no text layer with their OCR text (same page numbers). `pages[0]` is page
 * `firstPage`; at most `budget` pages are read. Without tesseract the pages stay as they were and `ocrMissing` says
 * so: the caller decides whether the document had any text at all.
 */
export async function readScannedPages(
  path: string,
  pages: string[],
  firstPage = 1,
  budget: number = OCR_LIMITS.maxPages,
): Promise<ScannedPages> {
  const scanned = pages
    .map((text, i) => (hasText(text) ? 0 : firstPage + i))
    .filter((n) => n > 0)
    .slice(0, Math.max(0, budget));
  if (scanned.length === 0) return { pages, ocrPages: 0, ocrRead: [], ocrMissing: false };
  const out = [...pages];
  const read: number[] = [];
  const dir = await jobTempDir('cerebro-ocr-');
  try {
    for (const page of scanned) {
      const prefix = join(dir, `p${page}`);
      const render = await runTool(
        'pdftoppm',
        [
          '-f',
          String(page),
          '-l',
          String(page),
          '-singlefile',
          '-gray',
          '-scale-to',
          String(OCR_LIMITS.renderLongSide),
          '-png',
          path,
          prefix,
        ],
        { timeoutMs: OCR_LIMITS.renderTimeoutMs, debianPackage: 'poppler-utils' },
      );
      if (render.killed) throw outOfTime(render);
      if (render.code !== 0) continue; // a page poppler cannot draw is left empty, like pdftotext left it
      out[page - firstPage] = (await ocrImageFile(`${prefix}.png`)).join('\n\n');
      read.push(page);
      await rm(`${prefix}.png`, { force: true });
    }
  } catch (err) {
    if (!(err instanceof ToolMissingError)) throw err;
    return { pages, ocrPages: 0, ocrRead: [], ocrMissing: true };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { pages: out, ocrPages: scanned.length, ocrRead: read, ocrMissing: false };
}

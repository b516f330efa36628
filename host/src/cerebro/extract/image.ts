// Uploaded images (PNG, JPEG, TIFF) are read with OCR: their size is checked from the header first (pixels per page,
// pages per file), then tesseract reads them; each TIFF page keeps its page number.
import { CerebroExtractionError, reasons } from '../errors.js';
import { imagePages } from './image-size.js';
import { OCR_LIMITS, ocrImageFile } from './ocr.js';
import { ToolMissingError } from './run-tool.js';
import type { ExtractedDocument, TextBlock } from './types.js';

export async function imageToDocument(path: string, bytes: Buffer, what: string): Promise<ExtractedDocument> {
  const pages = imagePages(bytes, OCR_LIMITS.maxPages);
  if (!pages) throw new CerebroExtractionError('corrupto', reasons.corrupt(what));
  if (pages.length > OCR_LIMITS.maxPages) {
    throw new CerebroExtractionError(
      'demasiado_grande',
      reasons.imageTooLarge(`más de ${OCR_LIMITS.maxPages} páginas`),
    );
  }
  const largest = Math.max(...pages.map((p) => p.width * p.height));
  if (largest > OCR_LIMITS.maxPixels) {
    throw new CerebroExtractionError(
      'demasiado_grande',
      reasons.imageTooLarge(
        `${Math.round(largest / 1e6)} megapíxeles por página; máximo ${OCR_LIMITS.maxPixels / 1e6}`,
      ),
    );
  }
  let texts: string[];
  try {
    texts = await ocrImageFile(path, pages.length);
  } catch (err) {
    if (err instanceof ToolMissingError) throw new CerebroExtractionError('no_soportado', reasons.ocrMissing);
    throw err;
  }
  const blocks: TextBlock[] = [];
  texts.forEach((text, i) => {
    for (const para of text.split(/\n\s*\n/)) if (para.trim()) blocks.push({ text: para, page: i + 1, ocr: true });
  });
  if (!blocks.some((b) => /[\p{L}\p{N}]/u.test(b.text))) throw new CerebroExtractionError('vacio', reasons.imageNoText);
  return { blocks, pages: texts.length };
}

// DOCX through mammoth, which maps Word heading styles to <h1>…<h6>; the HTML extractor then keeps the heading path.
import mammoth from 'mammoth';
import { CerebroExtractionError, reasons } from '../errors.js';
import { htmlToDocument } from './html.js';
import type { ExtractedDocument } from './types.js';

export async function docxToDocument(bytes: Buffer): Promise<ExtractedDocument> {
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch {
    throw new CerebroExtractionError('corrupto', reasons.corrupt('DOCX'));
  }
  return htmlToDocument(html);
}

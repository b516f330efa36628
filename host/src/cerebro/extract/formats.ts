// The document formats Cerebro reads, told from a file's name and declared media type. Apart from the extractors
// (extract.ts) so the main thread, which only needs to tell a format (indexing-runner.ts, downloads), loads none of
// them: their parsers (marked, htmlparser2, csv-parse, iconv-lite, chardet) run in the extraction threads.
import { extname } from 'node:path';
import type { DocumentFormat } from './types.js';

const BY_EXTENSION: Record<string, DocumentFormat> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.csv': 'csv',
  '.tsv': 'csv',
  '.xlsx': 'xlsx',
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.tif': 'tiff',
  '.tiff': 'tiff',
};

const BY_MEDIA_TYPE: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'text/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/tiff': 'tiff',
};

/** Content type to serve each format with (downloads). */
export const MEDIA_TYPES: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
};

/** The format of a file by name then media type, or null when neither is supported. */
export function formatOf(name: string, mediaType?: string): DocumentFormat | null {
  const byName = BY_EXTENSION[extname(name).toLowerCase()];
  if (byName) return byName;
  const mt = mediaType?.split(';')[0]?.trim().toLowerCase();
  return (mt && BY_MEDIA_TYPE[mt]) || null;
}

/** Formats indexing reads whole from their bytes in memory (extract.ts), with no file needed. */
const READ_WHOLE: ReadonlySet<DocumentFormat> = new Set(['html', 'markdown', 'docx', 'xlsx']);

/**
 * Whether indexing reads a document of this format whole from its bytes (not streamed from its file as plain text
 * and CSV, nor given by path to a tool as PDF and images to poppler and tesseract): only those may be handed to
 * indexing as bytes (`PrepareTask.content`).
 */
export function readsWhole(format: DocumentFormat | null): boolean {
  return format !== null && READ_WHOLE.has(format);
}

// Chooses the extractor for a file from its name, declared media type and leading bytes, and turns every failure
// into a CerebroExtractionError with a Spanish reason.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { CerebroExtractionError, reasons } from '../errors.js';
import { decodeText } from './decode.js';
import { decodeHtml, htmlToDocument } from './html.js';
import { imageToDocument } from './image.js';
import { inJob } from './job-scope.js';
import { markdownToDocument } from './markdown.js';
import { pdfToDocument } from './pdf.js';
import { assertReasonableZip } from './zip-guard.js';
import { structureLines } from './line-structure.js';
import { csvToDocument } from './tabular.js';
import type { ExtractedDocument, TextBlock } from './types.js';
import { loadOptionalReader } from './optional-reader.js';
import { formatOf, readsWhole } from './formats.js';

export { formatOf, MEDIA_TYPES } from './formats.js';

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((v, i) => b[i] === v);
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0]; // compound file: password-protected OOXML or legacy .doc/.xls

function plainToDocument(text: string, encoding: string): ExtractedDocument {
  const blocks: TextBlock[] = text
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .flatMap((p) => structureLines(p));
  return { blocks, encoding };
}

/** Reads and extracts one stored file. Throws CerebroExtractionError for anything the user must be told about. */
export function extractFile(
  path: string,
  name: string,
  mediaType?: string,
  timeoutMs = 0,
  /** The file's bytes already in memory (a format `readsWhole`): `path` is then not read. */
  content?: Uint8Array,
): Promise<ExtractedDocument> {
  // The external tools a format needs (poppler, tesseract) each get their own time, within the job's `timeoutMs`.
  return inJob({ timeoutMs }, () => extractFormat(path, name, mediaType, content));
}

async function extractFormat(
  path: string,
  name: string,
  mediaType: string | undefined,
  content: Uint8Array | undefined,
): Promise<ExtractedDocument> {
  const format = formatOf(name, mediaType);
  if (!format)
    throw new CerebroExtractionError('no_soportado', reasons.unsupported(extname(name) || mediaType || 'desconocido'));
  // A PDF is read by poppler from its file (pdf.ts checks its header, its text and its emptiness itself).
  if (format === 'pdf') return pdfToDocument(path);
  const bytes =
    content && readsWhole(format)
      ? Buffer.from(content.buffer, content.byteOffset, content.byteLength)
      : await readFile(path);
  if (bytes.length === 0) throw new CerebroExtractionError('vacio', reasons.empty);

  let doc: ExtractedDocument;
  switch (format) {
    case 'docx':
    case 'xlsx':
      if (startsWith(bytes, OLE_MAGIC)) throw new CerebroExtractionError('cifrado', reasons.legacyOffice);
      if (!startsWith(bytes, ZIP_MAGIC))
        throw new CerebroExtractionError('corrupto', reasons.corrupt(format.toUpperCase()));
      await assertReasonableZip(bytes, format);
      // Loaded on first use: mammoth and exceljs add ~40 MB to every indexing thread that never reads an Office file.
      doc =
        format === 'docx'
          ? await (await loadOptionalReader(() => import('./docx.js'), 'DOCX', 'mammoth')).docxToDocument(bytes)
          : await (await loadOptionalReader(() => import('./xlsx.js'), 'XLSX', 'exceljs')).xlsxToDocument(bytes);
      break;
    case 'html': {
      const { text, encoding } = decodeHtml(bytes);
      doc = { ...htmlToDocument(text), encoding };
      break;
    }
    case 'markdown': {
      const { text, encoding } = decodeText(bytes);
      doc = { ...markdownToDocument(text), encoding };
      break;
    }
    case 'csv': {
      const { text, encoding } = decodeText(bytes);
      doc = { ...csvToDocument(text), encoding };
      break;
    }
    case 'text': {
      const { text, encoding } = decodeText(bytes);
      doc = plainToDocument(text, encoding);
      break;
    }
    case 'png':
    case 'jpeg':
    case 'tiff':
      doc = await imageToDocument(path, bytes, format.toUpperCase());
      break;
  }
  if (!doc.blocks.some((b) => /[\p{L}\p{N}]/u.test(b.text))) throw new CerebroExtractionError('vacio', reasons.empty);
  return doc;
}

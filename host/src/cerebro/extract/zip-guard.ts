// Refuses ZIP containers (DOCX, XLSX) that would inflate to an unreasonable size before any parser inflates them:
// a decompression bomb would otherwise exhaust the process memory (Node cannot reliably contain that in a worker).
// Reads the declared sizes from the ZIP central directory.
import { CerebroExtractionError, reasons } from '../errors.js';

/** Inflated size limits: exceljs keeps a whole workbook as objects (several times its XML), so XLSX gets less. */
export const MAX_UNCOMPRESSED_BYTES = { docx: 300 * 1024 * 1024, xlsx: 100 * 1024 * 1024 } as const;

const EOCD = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;

/** Sum of the uncompressed sizes the archive declares; throws for archives that cannot be sized. */
export function declaredUncompressedSize(zip: Buffer): number {
  const from = Math.max(0, zip.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = zip.length - 22; i >= from; i--) {
    if (zip.readUInt32LE(i) === EOCD) { eocd = i; break; }
  }
  if (eocd < 0) throw new CerebroExtractionError('corrupto', reasons.corrupt('comprimido (DOCX/XLSX)'));
  const entries = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (entries === 0xffff || offset === 0xffffffff) throw new CerebroExtractionError('demasiado_grande', reasons.tooLarge); // ZIP64
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_HEADER) {
      throw new CerebroExtractionError('corrupto', reasons.corrupt('comprimido (DOCX/XLSX)'));
    }
    const size = zip.readUInt32LE(offset + 24);
    if (size === 0xffffffff) throw new CerebroExtractionError('demasiado_grande', reasons.tooLarge);
    total += size;
    offset += 46 + zip.readUInt16LE(offset + 28) + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return total;
}

export function assertReasonableZip(zip: Buffer, format: keyof typeof MAX_UNCOMPRESSED_BYTES): void {
  if (declaredUncompressedSize(zip) > MAX_UNCOMPRESSED_BYTES[format]) throw new CerebroExtractionError('demasiado_grande', reasons.tooLarge);
}

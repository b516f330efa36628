// Refuses ZIP containers (DOCX, XLSX) that would inflate to an unreasonable size before any parser inflates them:
// a decompression bomb would otherwise exhaust the process memory (Node cannot reliably contain that in a worker).
// Declared sizes (the ZIP central directory) give a cheap first refusal but prove nothing: a bomb declares a few
// bytes and inflates to hundreds of megabytes. So every entry is then really inflated, counted and discarded,
// and refused at the first byte past what it declared; the parsers afterwards read the same entries, through the
// same central directory, and so can never inflate more than the declared total.
import { CerebroExtractionError, reasons } from '../errors.js';
import { inflatedSize, InflationLimitExceeded } from './archive-inflation.js';

/** Inflated size limits: exceljs keeps a whole workbook as objects (several times its XML), so XLSX gets less. */
export const MAX_UNCOMPRESSED_BYTES = { docx: 300 * 1024 * 1024, xlsx: 100 * 1024 * 1024 } as const;

const EOCD = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** One entry as the central directory describes it. */
export interface ZipEntry {
  method: number;
  compressedSize: number;
  declaredSize: number;
  localHeaderOffset: number;
}

const corrupt = () => new CerebroExtractionError('corrupto', reasons.corrupt('comprimido (DOCX/XLSX)'));
const tooLarge = () => new CerebroExtractionError('demasiado_grande', reasons.tooLarge);

/** The entries of the central directory; throws for archives that cannot be read or sized (ZIP64). */
export function centralDirectory(zip: Buffer): ZipEntry[] {
  const from = Math.max(0, zip.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = zip.length - 22; i >= from; i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw corrupt();
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff) throw tooLarge(); // ZIP64
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_HEADER) throw corrupt();
    const entry = {
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      declaredSize: zip.readUInt32LE(offset + 24),
      localHeaderOffset: zip.readUInt32LE(offset + 42),
    };
    if (entry.declaredSize === 0xffffffff || entry.compressedSize === 0xffffffff) throw tooLarge();
    entries.push(entry);
    offset += 46 + zip.readUInt16LE(offset + 28) + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return entries;
}

/** The compressed bytes of an entry, located through its local header as ZIP readers do. */
function compressedData(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER) throw corrupt();
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw corrupt();
  return zip.subarray(start, start + entry.compressedSize);
}

/**
 * Refuses (`demasiado_grande`) an archive that declares more than the format's limit, or any of whose entries
 * really inflates to more than it declares; `corrupto` when an entry cannot be inflated.
 */
export async function assertReasonableZip(zip: Buffer, format: keyof typeof MAX_UNCOMPRESSED_BYTES): Promise<void> {
  const entries = centralDirectory(zip);
  if (entries.reduce((sum, e) => sum + e.declaredSize, 0) > MAX_UNCOMPRESSED_BYTES[format]) throw tooLarge();
  for (const entry of entries) {
    try {
      await inflatedSize(compressedData(zip, entry), entry.method, entry.declaredSize);
    } catch (err) {
      if (err instanceof CerebroExtractionError) throw err;
      throw err instanceof InflationLimitExceeded ? tooLarge() : corrupt();
    }
  }
}

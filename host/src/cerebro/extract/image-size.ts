// Page sizes of a PNG, JPEG or TIFF from its header alone, so that an image too large for OCR (or a multi-page TIFF
// with too many pages) is refused before any decoder allocates its pixels.

export interface ImagePage {
  width: number;
  height: number;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngSize(b: Buffer): ImagePage[] | null {
  if (b.length < 24 || !PNG_MAGIC.every((v, i) => b[i] === v)) return null;
  return [{ width: b.readUInt32BE(16), height: b.readUInt32BE(20) }];
}

/** The first start-of-frame segment (SOF0–SOF15 except DHT, JPG, DAC) holds the size. */
function jpegSize(b: Buffer): ImagePage[] | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null; // image data or end before any frame header
    const length = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [{ height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) }];
    }
    i += 2 + length;
  }
  return null;
}

/** Every page (image file directory) of a TIFF, following the IFD chain; stops after `maxPages + 1`. */
function tiffSize(b: Buffer, maxPages: number): ImagePage[] | null {
  const le = b.toString('latin1', 0, 4) === 'II*\0';
  if (!le && b.toString('latin1', 0, 4) !== 'MM\0*') return null;
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const pages: ImagePage[] = [];
  const seen = new Set<number>();
  let ifd = u32(4);
  while (ifd !== 0 && !seen.has(ifd) && pages.length <= maxPages) {
    seen.add(ifd);
    if (ifd + 2 > b.length) return null;
    const count = u16(ifd);
    if (ifd + 2 + count * 12 + 4 > b.length) return null;
    let width = 0;
    let height = 0;
    for (let e = 0; e < count; e++) {
      const at = ifd + 2 + e * 12;
      const tag = u16(at);
      const value = u16(at + 2) === 3 ? u16(at + 8) : u32(at + 8);
      if (tag === 256) width = value;
      if (tag === 257) height = value;
    }
    if (!width || !height) return null;
    pages.push({ width, height });
    ifd = u32(ifd + 2 + count * 12);
  }
  return pages.length ? pages : null;
}

/** The pages of an image and their sizes, or null when the header is not a readable PNG, JPEG or TIFF. */
export function imagePages(bytes: Buffer, maxPages: number): ImagePage[] | null {
  return pngSize(bytes) ?? jpegSize(bytes) ?? tiffSize(bytes, maxPages);
}

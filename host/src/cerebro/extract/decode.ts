// Decodes bytes of unknown encoding into a string: BOM first, then strict UTF-8, then UTF-16 without BOM by its
// zero-byte pattern, then chardet's statistical guess. ISO-8859-1 guesses are decoded as windows-1252, its superset
// that real "Latin-1" files use (curly quotes, €, dashes live in 0x80–0x9F).
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { CerebroExtractionError, reasons } from '../errors.js';

export interface Decoded { text: string; encoding: string }

const utf8 = new TextDecoder('utf-8', { fatal: true });

function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.3 && evenZero < pairs * 0.05) return 'utf-16le';
  if (evenZero > pairs * 0.3 && oddZero < pairs * 0.05) return 'utf-16be';
  return null;
}

export function decodeText(bytes: Uint8Array): Decoded {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return { text: buf.subarray(3).toString('utf8'), encoding: 'utf-8' };
  if (buf[0] === 0xff && buf[1] === 0xfe) return { text: iconv.decode(buf.subarray(2), 'utf-16le'), encoding: 'utf-16le' };
  if (buf[0] === 0xfe && buf[1] === 0xff) return { text: iconv.decode(buf.subarray(2), 'utf-16be'), encoding: 'utf-16be' };

  const wide = utf16WithoutBom(buf);
  if (wide) return { text: iconv.decode(buf, wide), encoding: wide };

  // NUL bytes never appear in real single-byte or UTF-8 text: this is a binary file with a text extension.
  if (buf.subarray(0, 65_536).includes(0)) throw new CerebroExtractionError('no_soportado', reasons.binary);

  try {
    return { text: utf8.decode(buf), encoding: 'utf-8' };
  } catch {
    // Not valid UTF-8: fall through to a statistical guess among legacy encodings.
  }
  let guess = (chardet.detect(buf.subarray(0, 262_144)) ?? 'windows-1252').toLowerCase();
  if (guess === 'iso-8859-1' || guess === 'ascii' || guess === 'utf-8' || !iconv.encodingExists(guess)) guess = 'windows-1252';
  return { text: iconv.decode(buf, guess), encoding: guess };
}

/** Charset declared inside an HTML document's first bytes (<meta charset> or http-equiv content type). */
export function declaredHtmlCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head);
  if (!m) return null;
  const cs = m[1]!.toLowerCase();
  return iconv.encodingExists(cs) ? (cs === 'iso-8859-1' ? 'windows-1252' : cs) : null;
}

// Decodes bytes of unknown encoding into a string: BOM first, then strict UTF-8, then UTF-16 without BOM by its
// zero-byte pattern, then chardet's statistical guess. ISO-8859-1 guesses are decoded as windows-1252, its superset
// that real "Latin-1" files use (curly quotes, €, dashes live in 0x80–0x9F).
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { isUtf8 } from 'node:buffer';
import { CerebroExtractionError, reasons } from '../errors.js';

export interface Decoded {
  text: string;
  encoding: string;
}

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

/** How a text's bytes are encoded, and how many leading bytes are its byte-order mark. */
export interface TextEncoding {
  encoding: string;
  bomBytes: number;
}

/** Bytes of the start of a text that encoding detection looks at. */
export const HEAD_BYTES = 262_144;

/**
 * The encoding of a text from its first bytes (`head`, at least HEAD_BYTES when the text is longer): a byte-order
 * mark, else UTF-16 by its zero-byte pattern. Null when the rest decides: UTF-8 if the whole text is valid UTF-8,
 * else legacyEncodingOf(head). Throws for binary files.
 */
export function detectEncoding(head: Buffer): TextEncoding | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomBytes: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2 };

  const wide = utf16WithoutBom(head);
  if (wide) return { encoding: wide, bomBytes: 0 };

  // NUL bytes never appear in real single-byte or UTF-8 text: this is a binary file with a text extension.
  if (head.subarray(0, 65_536).includes(0)) throw new CerebroExtractionError('no_soportado', reasons.binary);
  return null;
}

/** A statistical guess among legacy encodings, for text that is not valid UTF-8. */
export function legacyEncodingOf(head: Buffer): string {
  const guess = (chardet.detect(head.subarray(0, HEAD_BYTES)) ?? 'windows-1252').toLowerCase();
  return guess === 'iso-8859-1' || guess === 'ascii' || guess === 'utf-8' || !iconv.encodingExists(guess)
    ? 'windows-1252'
    : guess;
}

export function decodeText(bytes: Uint8Array): Decoded {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { encoding, bomBytes } = detectEncoding(buf) ?? {
    encoding: isUtf8(buf) ? 'utf-8' : legacyEncodingOf(buf),
    bomBytes: 0,
  };
  const body = buf.subarray(bomBytes);
  return { text: encoding === 'utf-8' ? body.toString('utf8') : iconv.decode(body, encoding), encoding };
}

/** Charset declared inside an HTML document's first bytes (<meta charset> or http-equiv content type). */
export function declaredHtmlCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head);
  if (!m) return null;
  const cs = m[1]!.toLowerCase();
  return iconv.encodingExists(cs) ? (cs === 'iso-8859-1' ? 'windows-1252' : cs) : null;
}

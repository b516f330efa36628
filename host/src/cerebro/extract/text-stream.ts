// Plain-text files read in bounded pieces instead of whole: a 25 MB text would otherwise sit in memory three
// times over (its bytes, its UTF-16 string, its blocks) while it is chunked. The blocks are the same as the
// whole-file extractor's (paragraphs separated by blank lines), and the encoding is detected the same way.
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import iconv from 'iconv-lite';
import { CerebroExtractionError, reasons } from '../errors.js';
import { detectEncoding, HEAD_BYTES, legacyEncodingOf, type TextEncoding } from './decode.js';
import { readStart } from './read-start.js';
import type { TextBlock } from './types.js';

/**
 * Bytes decoded at a time, and the longest paragraph piece handed over (cut at a line break): small enough that the
 * strings stay out of V8's large-object space (see chunk-windows.ts).
 */
const READ_BYTES = 32 * 1024;
const MAX_PENDING_CHARS = 16 * 1024;
/** Bytes validated at a time (the validator makes no strings). */
const VALIDATE_BYTES = 1024 * 1024;

const PARAGRAPH_BREAK = /\n\s*\n/;

export interface StreamedText {
  encoding: string;
  /** The text's paragraphs, in order; throws `vacio` at the end when none holds a letter or digit. */
  blocks: AsyncGenerator<TextBlock>;
}

/** Length of the part of `bytes` that ends on a whole UTF-8 character (a split one is left for the next piece). */
function wholeCharactersLength(bytes: Buffer): number {
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bytes[i]! & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i]!;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return needed > continuation + 1 ? i : bytes.length;
}

/**
 * Whether the whole file is valid UTF-8, read piece by piece with Buffer's validator: unlike a decoder it makes
 * no strings, whose garbage would grow the heap by the file's size twice over.
 */
async function fileIsUtf8(path: string): Promise<boolean> {
  let carry = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: VALIDATE_BYTES })) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    const whole = wholeCharactersLength(bytes);
    if (!isUtf8(bytes.subarray(0, whole))) return false;
    carry = Buffer.from(bytes.subarray(whole));
  }
  return carry.length === 0;
}

/** A streaming decoder for `encoding`: `write` for each piece, `end` for what a split character left over. */
function decoderFor(encoding: string): { write(chunk: Buffer): string; end(): string } {
  if (encoding === 'utf-8') {
    const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
    return { write: (chunk) => utf8.decode(chunk, { stream: true }), end: () => utf8.decode() };
  }
  const legacy = iconv.getDecoder(encoding);
  return { write: (chunk) => legacy.write(chunk), end: () => legacy.end() ?? '' };
}

/** Index just past the last line break of a long pending paragraph, else its last space, else its length. */
function cutAt(pending: string): number {
  for (const separator of ['\n', ' ']) {
    const at = pending.lastIndexOf(separator);
    if (at > 0) return at + 1;
  }
  return pending.length;
}

/** The file's text, decoded READ_BYTES at a time (a character split between reads comes whole with the next). */
export async function* decodedPieces(path: string, encoding: string, bomBytes: number): AsyncGenerator<string> {
  const decoder = decoderFor(encoding);
  for await (const chunk of createReadStream(path, { start: bomBytes, highWaterMark: READ_BYTES }))
    yield decoder.write(chunk as Buffer);
  const rest = decoder.end();
  if (rest) yield rest;
}

async function* paragraphs(path: string, encoding: string, bomBytes: number): AsyncGenerator<TextBlock> {
  let pending = '';
  let readable = false;
  const emit = function* (text: string): Generator<TextBlock> {
    if (!text.trim()) return;
    readable ||= /[\p{L}\p{N}]/u.test(text);
    yield { text };
  };
  for await (const piece of decodedPieces(path, encoding, bomBytes)) {
    pending += piece;
    const parts = pending.split(PARAGRAPH_BREAK);
    // The last part may continue in the next piece (its paragraph break may even be split between pieces).
    pending = parts.pop()!;
    for (const part of parts) yield* emit(part);
    while (pending.length > MAX_PENDING_CHARS) {
      const cut = cutAt(pending);
      yield* emit(pending.slice(0, cut));
      pending = pending.slice(cut);
    }
  }
  for (const part of pending.split(PARAGRAPH_BREAK)) yield* emit(part);
  if (!readable) throw new CerebroExtractionError('vacio', reasons.empty);
}

/**
 * Opens a plain-text file for reading paragraph by paragraph. Refuses at once what the whole-file extractor
 * refuses before reading the text: an empty file (`vacio`) and a binary one (`no_soportado`).
 */
export async function streamPlainText(path: string): Promise<StreamedText> {
  const { encoding, bomBytes } = await textFileEncoding(path);
  return { encoding, blocks: paragraphs(path, encoding, bomBytes) };
}

/** The encoding of a text file, detected as the whole-file extractor does; an empty file is `vacio`. */
export async function textFileEncoding(path: string): Promise<TextEncoding> {
  const head = await readStart(path, HEAD_BYTES);
  if (head.length === 0) throw new CerebroExtractionError('vacio', reasons.empty);
  return detectEncoding(head) ?? { encoding: (await fileIsUtf8(path)) ? 'utf-8' : legacyEncodingOf(head), bomBytes: 0 };
}

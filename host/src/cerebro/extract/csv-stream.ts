// CSV read as a stream for indexing: decoded 32 KB at a time (text-stream.ts) and parsed record by record, so a
// large CSV never sits in memory whole, as its bytes, its text, its rows and its blocks. The blocks are those of
// the whole-file reader (tabular.ts): same delimiter choice, same parser options, same rows.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { CerebroExtractionError, reasons } from '../errors.js';
import { csvDelimiter, csvOptions, TableRows } from './tabular.js';
import { decodedPieces, textFileEncoding, type StreamedText } from './text-stream.js';
import type { TextBlock } from './types.js';

/** The text up to its first line break (or all of it), read from `pieces`, which then continue after it. */
async function firstLine(pieces: AsyncIterator<string>): Promise<{ head: string; done: boolean }> {
  let head = '';
  while (!head.includes('\n')) {
    const next = await pieces.next();
    if (next.done) return { head, done: true };
    head += next.value;
  }
  return { head, done: false };
}

async function* rows(path: string, encoding: string, bomBytes: number): AsyncGenerator<TextBlock> {
  const pieces = decodedPieces(path, encoding, bomBytes);
  const { head, done } = await firstLine(pieces);
  const text = Readable.from(
    (async function* () {
      yield head;
      if (!done) yield* pieces; // the rest, after the pieces firstLine took
    })(),
  );
  const parser = text.pipe(parse(csvOptions(csvDelimiter(head.slice(0, head.indexOf('\n') >>> 0)))));
  text.once('error', (err) => parser.destroy(err));
  const table = new TableRows();
  let readable = false;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const block = table.add(record);
      if (!block) continue;
      readable ||= /[\p{L}\p{N}]/u.test(block.text);
      yield block;
    }
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') throw err;
    throw new CerebroExtractionError('corrupto', reasons.corrupt('CSV'));
  }
  for (const block of table.finish()) {
    readable ||= /[\p{L}\p{N}]/u.test(block.text);
    yield block;
  }
  if (!readable) throw new CerebroExtractionError('vacio', reasons.empty);
}

/** Opens a CSV file for reading row by row; an empty file is `vacio` at once, one without text at the end. */
export async function streamCsv(path: string): Promise<StreamedText> {
  const { encoding, bomBytes } = await textFileEncoding(path);
  return { encoding, blocks: rows(path, encoding, bomBytes) };
}

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import iconv from 'iconv-lite';
import { CerebroExtractionError } from '../errors.js';
import { tempDir, type TempDir } from '../testing/fixtures.js';
import { decodeText } from './decode.js';
import { streamCsv } from './csv-stream.js';
import { csvToDocument } from './tabular.js';
import type { TextBlock } from './types.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

async function streamed(name: string, bytes: Buffer): Promise<{ encoding: string; blocks: TextBlock[] }> {
  const csv = await streamCsv(await dir.file(name, bytes));
  const blocks: TextBlock[] = [];
  for await (const block of csv.blocks) blocks.push(block);
  return { encoding: csv.encoding, blocks };
}

/** What the whole-file reader makes of the same bytes. */
function whole(bytes: Buffer): { encoding: string; blocks: TextBlock[] } {
  const { text, encoding } = decodeText(bytes);
  return { encoding, blocks: csvToDocument(text).blocks };
}

async function rejectsWith(name: string, bytes: Buffer, code: string): Promise<void> {
  await assert.rejects(
    streamed(name, bytes),
    (err: unknown) => err instanceof CerebroExtractionError && err.code === code,
  );
}

test('a streamed CSV gives the blocks and encoding of the whole-file reader, across read boundaries', async () => {
  // Quoted cells with line breaks and two-byte characters, over many 32 KB reads, so records and characters
  // straddle the boundaries.
  const rows = Array.from(
    { length: 4000 },
    (_, i) => `Café ${i};${i},50;"Tostado ""natural""\nen grano, año ${i % 7}"`,
  );
  const bytes = Buffer.from(`Producto;Precio;Descripción\n${rows.join('\n')}\n`);
  const got = await streamed('precios.csv', bytes);
  assert.deepEqual(got, whole(bytes));
  assert.equal(got.blocks.length, 4000);
});

test('Windows-1252, a tab-separated file and a header-only file match the whole-file reader', async () => {
  for (const [name, bytes] of [
    ['latin.csv', iconv.encode('Producto;Precio\nCafé;3,50\nTé;2\n', 'windows-1252')],
    ['tabla.tsv', Buffer.from('clave\tvalor\nred\tinterfaces\n')],
    ['cabecera.csv', Buffer.from('nombre,apellido,teléfono')],
  ] as const) {
    assert.deepEqual(await streamed(name, bytes), whole(bytes), name);
  }
});

test('an empty CSV, one without text and a broken one fail with their codes', async () => {
  await rejectsWith('vacio.csv', Buffer.alloc(0), 'vacio');
  await rejectsWith('signos.csv', Buffer.from(';;\n--;--\n'), 'vacio');
  await rejectsWith('roto.csv', Buffer.from('a,b\n"sin cerrar,1\n'), 'corrupto');
});

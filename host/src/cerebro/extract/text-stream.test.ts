import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import iconv from 'iconv-lite';
import { CerebroExtractionError } from '../errors.js';
import { tempDir, type TempDir } from '../testing/fixtures.js';
import { decodeText } from './decode.js';
import { streamPlainText } from './text-stream.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

/** What the whole-file extractor makes of the same bytes: the decoded text's paragraphs. */
function wholeFileParagraphs(bytes: Buffer): { encoding: string; paragraphs: string[] } {
  const { text, encoding } = decodeText(bytes);
  return { encoding, paragraphs: text.split(/\n\s*\n/).filter((p) => p.trim()) };
}

async function streamed(name: string, bytes: Buffer): Promise<{ encoding: string; paragraphs: string[] }> {
  const text = await streamPlainText(await dir.file(name, bytes));
  const paragraphs: string[] = [];
  for await (const block of text.blocks) paragraphs.push(block.text);
  return { encoding: text.encoding, paragraphs };
}

const PARAGRAPH = 'La configuración de la red se guarda en /etc/network/interfaces; el año pasado cambió. ';

test('paragraphs and encoding match the whole-file extractor across read boundaries', async () => {
  // Paragraphs of varied lengths so that breaks, "\n\n" pairs and two-byte characters fall on every kind of
  // boundary of the 32 KB reads.
  const text = Array.from(
    { length: 900 },
    (_, i) => PARAGRAPH.repeat(1 + (i % 7)) + (i % 3 === 0 ? '\n \n' : '\n\n'),
  ).join('');
  for (const [name, bytes] of [
    ['utf8.txt', Buffer.from(text, 'utf8')],
    ['bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])],
    ['utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')])],
    ['latin1.txt', iconv.encode(text, 'latin1')],
  ] as const) {
    const whole = wholeFileParagraphs(bytes);
    const stream = await streamed(name, bytes);
    assert.equal(stream.encoding, whole.encoding, name);
    assert.deepEqual(stream.paragraphs, whole.paragraphs, name);
  }
});

test('UTF-8 that turns invalid after the first 256 KB is decoded as the whole-file extractor decodes it', async () => {
  const bytes = Buffer.concat([
    Buffer.from(`${PARAGRAPH.repeat(100)}\n\n`.repeat(40), 'utf8'),
    iconv.encode('Canción del niño.\n', 'latin1'),
  ]);
  const stream = await streamed('mixto.txt', bytes);
  assert.equal(stream.encoding, wholeFileParagraphs(bytes).encoding);
  assert.equal(stream.encoding, 'windows-1252');
  assert.deepEqual(stream.paragraphs, wholeFileParagraphs(bytes).paragraphs);
  assert.equal(stream.paragraphs.at(-1), 'Canción del niño.\n');
});

test('a paragraph with no blank line comes in pieces cut at line breaks, holding all of its text', async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `Línea ${i} de un texto sin párrafos.`).join('\n');
  const stream = await streamed('lineas.txt', Buffer.from(lines, 'utf8'));
  assert.ok(stream.paragraphs.length > 1);
  assert.ok(stream.paragraphs.every((p) => p.length <= 16 * 1024 + 32 * 1024));
  assert.equal(stream.paragraphs.join(''), lines);
});

test('empty, text-less and binary files are refused like the whole-file extractor refuses them', async () => {
  const refused = async (name: string, bytes: Buffer, code: string) => {
    await assert.rejects(
      streamed(name, bytes),
      (err: unknown) => err instanceof CerebroExtractionError && err.code === code,
    );
  };
  await refused('vacio.txt', Buffer.alloc(0), 'vacio');
  await refused('blancos.txt', Buffer.from('\n\n   \n-- ** --\n'), 'vacio');
  await refused(
    'binario.txt',
    Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100), Buffer.from('texto')]),
    'no_soportado',
  );
});

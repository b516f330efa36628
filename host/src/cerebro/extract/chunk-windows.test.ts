import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkBlocks, DEFAULT_CHUNK_OPTIONS, type Passage } from '../text/chunker.js';
import { chunkInWindows, releasing } from './chunk-windows.js';
import type { TextBlock } from './types.js';

const sentence = (i: number) => `La frase ${i} explica cómo se configura el repositorio número ${i % 17} del sistema.`;
const paragraph = (i: number, n: number) => Array.from({ length: n }, (_, k) => sentence(i * 100 + k)).join(' ');

async function windowed(
  blocks: TextBlock[],
  options = { blockChars: 2000, sectionCutChars: 5000, forcedCutChars: 20_000 },
): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const passages of chunkInWindows(releasing([...blocks]), DEFAULT_CHUNK_OPTIONS, options))
    out.push(...passages);
  return out;
}

test('windows cut at page and heading changes give exactly the passages of chunking the whole document', async () => {
  const blocks: TextBlock[] = [];
  for (let page = 1; page <= 40; page++) {
    for (let p = 0; p < 3; p++)
      blocks.push({
        text: paragraph(page * 10 + p, 1 + ((page + p) % 6)),
        page,
        headings: [`Capítulo ${Math.ceil(page / 5)}`],
      });
  }
  const whole = chunkBlocks(blocks);
  const inWindows = await windowed(blocks);
  assert.deepEqual(inWindows, whole);
});

test('long paragraphs handed over in pieces give the same passages', async () => {
  const blocks = [{ text: Array.from({ length: 30 }, (_, i) => paragraph(i, 20)).join('\n\n') }];
  assert.deepEqual(
    await windowed(blocks, { blockChars: 3000, sectionCutChars: 1e9, forcedCutChars: 1e9 }),
    chunkBlocks(blocks),
  );
});

test('one long section is cut inside: passages stay within bounds, in order, and hold all of the text', async () => {
  const blocks = Array.from({ length: 200 }, (_, i) => ({ text: paragraph(i, 1 + (i % 5)) }));
  const passages = await windowed(blocks);
  assert.deepEqual(
    passages.map((p) => p.ord),
    passages.map((_, i) => i),
  );
  assert.ok(passages.every((p) => p.text.length <= DEFAULT_CHUNK_OPTIONS.maxChars));
  const words = (s: string) => s.split(/\s+/).filter(Boolean);
  assert.deepEqual(words(passages.map((p) => p.text).join(' ')), words(blocks.map((b) => b.text).join(' ')));
  // Only the passages at the few forced cuts may differ from a single pass.
  assert.ok(Math.abs(passages.length - chunkBlocks(blocks).length) <= 3);
});

test('releasing clears each block of the array as it is taken', () => {
  const blocks: (TextBlock | undefined)[] = [{ text: 'uno' }, { text: 'dos' }];
  const taken = releasing(blocks);
  assert.equal(taken.next().value?.text, 'uno');
  assert.equal(blocks[0], undefined);
  assert.equal(blocks[1]?.text, 'dos');
});

// Chunks a document's blocks a window at a time, so that the garbage of normalising and segmenting a 25 MB text,
// and its passages, never exist all at once: each window's passages are handed over and dropped before the next
// window is read. The chunker itself is unchanged; only what it is given at a time.
import type { TextBlock } from './types.js';
import { chunkBlocks, type ChunkOptions, type Passage } from '../text/chunker.js';

export interface ChunkWindowOptions {
  /** A block longer than this many characters is handed to the chunker in pieces cut at paragraph or line breaks. */
  blockChars: number;
  /** Past this many characters a window ends at the next page or heading change. */
  sectionCutChars: number;
  /** Past this many characters a window ends at the next block boundary, even inside a section. */
  forcedCutChars: number;
}

/**
 * A window ends preferably where a page or heading changes: the chunker closes its passage there anyway, so the
 * passages are exactly those of chunking the whole document at once. Only a section longer than forcedCutChars
 * (a plain-text file is one section) is cut inside, at a paragraph boundary, where the passage being filled ends
 * early: one passage per million characters may differ from a single pass.
 *
 * Blocks are also kept under blockChars (32 KB as UTF-16): V8 puts larger strings in its large-object space, where
 * the garbage of normalising and segmenting them waits for a full collection; small ones die young and cheaply. The
 * chunker continues a passage across consecutive blocks of one section, and a cut at a paragraph or line break
 * leaves its sentences as they were, so this changes no passage.
 */
export const DEFAULT_CHUNK_WINDOW: ChunkWindowOptions = {
  blockChars: 16 * 1024,
  sectionCutChars: 256 * 1024,
  forcedCutChars: 1024 * 1024,
};

const sectionKey = (b: TextBlock) => `${b.page ?? ''}\u0000${(b.headings ?? []).join('\u0001')}`;

/**
 * Index to cut a long text at: after its last paragraph break before `max`, else its last line break, else its last
 * space, else at `max`. Any break, however early, beats a later weaker one: a cut at a word would split a sentence.
 */
function cutIndex(text: string, max: number): number {
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = text.lastIndexOf(separator, max - separator.length);
    if (at > 0) return at + separator.length;
  }
  return max;
}

/** A block longer than `max` characters as consecutive blocks of the same section, cut at paragraph boundaries. */
function* boundedBlocks(block: TextBlock, max: number): Generator<TextBlock> {
  let rest = block.text;
  while (rest.length > max) {
    const cut = cutIndex(rest, max);
    yield { ...block, text: rest.slice(0, cut) };
    rest = rest.slice(cut);
  }
  yield rest === block.text ? block : { ...block, text: rest };
}

/** Yields each block of an array and clears its slot, so a block's text can be collected once it is chunked. */
export function* releasing(blocks: (TextBlock | undefined)[]): Generator<TextBlock> {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    blocks[i] = undefined;
    yield block;
  }
}

type Blocks = Iterable<TextBlock> | AsyncIterable<TextBlock>;

/** Groups of consecutive blocks, each a window as described above. */
async function* blockWindows(blocks: Blocks, options: ChunkWindowOptions): AsyncGenerator<TextBlock[]> {
  let window: TextBlock[] = [];
  let chars = 0;
  let key: string | null = null;
  for await (const block of blocks) {
    for (const part of boundedBlocks(block, options.blockChars)) {
      const partKey = sectionKey(part);
      if ((chars >= options.sectionCutChars && partKey !== key) || chars >= options.forcedCutChars) {
        yield window;
        window = [];
        chars = 0;
      }
      window.push(part);
      chars += part.text.length;
      key = partKey;
    }
  }
  if (window.length > 0) yield window;
}

/**
 * The passages of `blocks`, window by window, numbered across windows. Blocks are read as the windows need them
 * (pass an array through `releasing` to let its text go as it is chunked).
 */
export async function* chunkInWindows(
  blocks: Blocks,
  chunk: ChunkOptions,
  options: ChunkWindowOptions = DEFAULT_CHUNK_WINDOW,
): AsyncGenerator<Passage[]> {
  let ord = 0;
  for await (const window of blockWindows(blocks, options)) {
    const passages = chunkBlocks(window, chunk);
    for (const p of passages) p.ord = ord++;
    yield passages;
  }
}

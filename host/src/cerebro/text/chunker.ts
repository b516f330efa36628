// Splits extracted blocks into passages sized for retrieval: long enough to hold an answer with its context, short
// enough that BM25 length normalisation and the answer composer stay precise. A passage never crosses a page or a
// heading boundary, so its page number and heading path are exact.
import type { TextBlock } from '../extract/types.js';
import { normalizeText } from './normalize.js';
import { splitSentences } from './sentences.js';

export interface Passage {
  /** 0-based order within the document. */
  ord: number;
  text: string;
  page: number | null;
  /** Heading path, outermost first. */
  headings: string[];
}

export interface ChunkOptions {
  /** A passage is closed once it reaches this many characters. */
  targetChars: number;
  /** No passage is longer than this (a longer paragraph is cut at sentence, then word, boundaries). */
  maxChars: number;
  /** A trailing piece shorter than this joins the previous passage of the same section. */
  minChars: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { targetChars: 700, maxChars: 1200, minChars: 200 };

/** Cuts a piece longer than `max` at word boundaries. */
function cutWords(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(' ', max);
    if (cut < max / 2) cut = max;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** Pieces of one paragraph no longer than `max`: whole paragraph, else sentences, else word runs. */
function pieces(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  const out: string[] = [];
  for (const s of splitSentences(paragraph)) out.push(...(s.length <= max ? [s] : cutWords(s, max)));
  return out;
}

const sectionKey = (b: TextBlock) => `${b.page ?? ''}\u0000${(b.headings ?? []).join('\u0001')}`;

export function chunkBlocks(blocks: TextBlock[], options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Passage[] {
  const { targetChars, maxChars, minChars } = options;
  const passages: Passage[] = [];
  let current: { parts: string[]; length: number; key: string; block: TextBlock; sectionStart: number } | null = null;

  const close = () => {
    if (!current || current.parts.length === 0) return;
    const text = current.parts.join('\n');
    const last = passages[passages.length - 1];
    // Merge a short tail into the previous passage of the same section instead of leaving a fragment.
    if (text.length < minChars && last && passages.length > current.sectionStart && last.text.length + text.length < maxChars) {
      last.text += `\n${text}`;
    } else {
      passages.push({ ord: passages.length, text, page: current.block.page ?? null, headings: current.block.headings ?? [] });
    }
    current.parts = [];
    current.length = 0;
  };

  for (const block of blocks) {
    const key = sectionKey(block);
    if (!current || current.key !== key) {
      close();
      current = { parts: [], length: 0, key, block, sectionStart: passages.length };
    }
    for (const paragraph of normalizeText(block.text).split(/\n{2,}/)) {
      for (const piece of pieces(paragraph.trim(), maxChars)) {
        if (!piece) continue;
        if (current.length > 0 && current.length + piece.length + 1 > maxChars) close();
        current.parts.push(piece);
        current.length += piece.length + 1;
        if (current.length >= targetChars) close();
      }
    }
  }
  close();
  return passages;
}

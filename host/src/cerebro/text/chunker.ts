// Splits extracted blocks into passages sized for retrieval: long enough to hold an answer with its context, short
// enough that BM25 length normalisation and the answer composer stay precise. A passage never crosses a page or a
// heading boundary, so its page number and heading path are exact. Typed blocks keep their kind in the passage text
// (see units.ts): code is never cut inside a line, a table's rows are passages of their own with the header.
import type { TextBlock } from '../extract/types.js';
import { normalizeCode, normalizeText, oneLine } from './normalize.js';
import { splitSentences } from './sentences.js';
import { serializeBlock, tableHeaderLines } from './units.js';

export interface Passage {
  /** 0-based order within the document. */
  ord: number;
  text: string;
  page: number | null;
  /** Heading path, outermost first. */
  headings: string[];
  /** Read with OCR: set only when it was (a passage never mixes OCR text with a text layer's). */
  ocr?: boolean;
}

export interface ChunkOptions {
  /** A passage is closed once it reaches this many characters. */
  targetChars: number;
  /** No passage is longer than this (a longer paragraph is cut at sentence, then word, boundaries). */
  maxChars: number;
  /** A trailing piece shorter than this joins the previous passage of the same section. */
  minChars: number;
}

/**
 * Table passages close at this size: a one-row answer inside a long table passage would be buried by BM25 length
 * normalisation, and a handful of rows with their header reads on its own.
 */
const TABLE_TARGET_CHARS = 400;

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

/** Code cut at line boundaries into fenced pieces no longer than `max` (a longer single line is cut at words). */
function codePieces(code: string, max: number): string[] {
  const budget = max - 8; // the two fence lines
  const out: string[] = [];
  let current = '';
  for (const line of code.split('\n').flatMap((l) => (l.length > budget ? cutWords(l, budget) : [l]))) {
    if (current && current.length + line.length + 1 > budget) {
      out.push(current);
      current = '';
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) out.push(current);
  return out.map((c) => serializeBlock({ kind: 'code', text: c }));
}

/** Serialised pieces of one block, each no longer than `max`. */
function blockPieces(block: TextBlock, max: number): string[] {
  switch (block.kind) {
    case 'code':
      return codePieces(normalizeCode(block.text), max);
    case 'table-row':
      return cutWords(serializeBlock(block), max);
    case 'list-item': {
      const [first, ...rest] = pieces(oneLine(block.text), max - 2);
      return first ? [serializeBlock({ kind: 'list-item', text: first }), ...rest] : [];
    }
    default:
      return normalizeText(block.text)
        .split(/\n{2,}/)
        .flatMap((p) => pieces(p.trim(), max))
        .filter(Boolean);
  }
}

/**
 * A table's rows form sections of their own, under the heading path plus the caption, so a passage holds rows of one
 * table only and every passage repeats the header: a row retrieved alone still says what its cells mean.
 */
function sectionOf(block: TextBlock): { key: string; headings: string[]; prefix: string } {
  const headings = [...(block.headings ?? [])];
  let prefix = '';
  let table = '';
  if (block.kind === 'table-row' && block.table) {
    if (block.table.caption) headings.push(block.table.caption);
    prefix = tableHeaderLines(block.table.header);
    table = `\u0002${prefix}`;
  }
  const ocr = block.ocr ? '\u0003' : '';
  return { key: `${block.page ?? ''}${ocr}\u0000${headings.join('\u0001')}${table}`, headings, prefix };
}

export function chunkBlocks(blocks: TextBlock[], options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Passage[] {
  const { targetChars, maxChars, minChars } = options;
  const tableTarget = Math.min(targetChars, TABLE_TARGET_CHARS);
  const passages: Passage[] = [];
  let current: {
    parts: string[];
    length: number;
    key: string;
    page: number | null;
    headings: string[];
    prefix: string;
    target: number;
    sectionStart: number;
    ocr: boolean;
  } | null = null;

  const close = () => {
    if (!current || current.parts.length === 0) return;
    const body = current.parts.join('\n');
    const last = passages[passages.length - 1];
    // Merge a short tail into the previous passage of the same section instead of leaving a fragment.
    if (
      body.length < Math.min(minChars, current.target / 2) &&
      last &&
      passages.length > current.sectionStart &&
      last.text.length + body.length < maxChars
    ) {
      last.text += `\n${body}`;
    } else {
      const text = current.prefix ? `${current.prefix}\n${body}` : body;
      const passage: Passage = { ord: passages.length, text, page: current.page, headings: current.headings };
      if (current.ocr) passage.ocr = true;
      passages.push(passage);
    }
    current.parts = [];
    current.length = current.prefix.length;
  };

  for (const [at, block] of blocks.entries()) {
    const section = sectionOf(block);
    if (!current || current.key !== section.key) {
      close();
      current = {
        parts: [],
        length: section.prefix.length,
        key: section.key,
        page: block.page ?? null,
        headings: section.headings,
        prefix: section.prefix,
        target: section.prefix ? tableTarget : targetChars,
        sectionStart: passages.length,
        ocr: block.ocr === true,
      };
    }
    const pieces = blockPieces(block, maxChars - current.prefix.length);
    // A list goes on in the same passage while it fits (`maxChars`): cut after the target, its items would be split
    // from the sentence that announces them ("Aquí está la lista en orden decreciente:").
    const listGoesOn = block.kind === 'list-item' && blocks[at + 1]?.kind === 'list-item';
    pieces.forEach((piece, i) => {
      if (current!.parts.length > 0 && current!.length + piece.length + 1 > maxChars) close();
      current!.parts.push(piece);
      current!.length += piece.length + 1;
      if (current!.length >= current!.target && !(listGoesOn && i === pieces.length - 1)) close();
    });
  }
  close();
  return passages;
}

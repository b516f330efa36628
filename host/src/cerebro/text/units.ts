// How typed blocks live inside a stored passage's text, and how the answer composer reads them back. A passage is
// stored as light Markdown, so it needs no extra column, stays readable in `fuentes` excerpts and in a chat model's
// prompt, and its words index as before (the markup is punctuation to the analyser):
// - a paragraph is its text;
// - a list item is one line starting with "- " (or its own bullet or step number);
// - a code block or command lines are fenced with ``` lines, verbatim;
// - table rows are "| a | b |" lines; a table passage starts with its header line and a "|---|" rule.
import type { TextBlock } from '../extract/types.js';

export type UnitKind = 'sentence' | 'list-item' | 'code' | 'table-row';

/** A unit as stored: `prose` is a run of running-text lines, for the reader to split into sentences. */
export interface StoredUnit {
  kind: Exclude<UnitKind, 'sentence'> | 'prose';
  /** Prose lines, an item without its bullet, code lines verbatim, or a row's cells joined with " | ". */
  text: string;
  /** Table rows: the cells, and the header when the table has one. */
  cells?: string[];
  header?: string[];
}

const FENCE = '```';
const BULLET = /^(?:[•\-*·–▪◦]|\d{1,2}[.)])\s+/;
const RULE = /^\|(\s*:?-{3,}:?\s*\|)+$/;

const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');
export const tableLine = (cells: string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;

/** Header line and rule that open every passage of a table with a header. */
export function tableHeaderLines(header: string[] | undefined): string {
  return header ? `${tableLine(header)}\n|${header.map(() => '---|').join('')}` : '';
}

/** One block's serialised form (table rows without their header: the chunker puts it once per passage). */
export function serializeBlock(block: TextBlock): string {
  switch (block.kind) {
    case 'list-item':
      return BULLET.test(block.text) ? block.text : `- ${block.text}`;
    case 'code':
      return `${FENCE}\n${block.text}\n${FENCE}`;
    case 'table-row':
      return tableLine(block.table?.cells ?? [block.text]);
    default:
      return block.text;
  }
}

function splitRow(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/**
 * The units of a stored passage, in order. Prose comes back as paragraphs (line runs), for the caller to split into
 * sentences; the structured kinds come back whole.
 */
export function parseUnits(text: string): StoredUnit[] {
  const out: StoredUnit[] = [];
  const lines = text.split('\n');
  let prose: string[] = [];
  let header: string[] | undefined;
  const flushProse = () => {
    if (prose.length) out.push({ kind: 'prose', text: prose.join('\n') });
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === FENCE) {
      flushProse();
      const code: string[] = [];
      for (i++; i < lines.length && lines[i]!.trim() !== FENCE; i++) code.push(lines[i]!);
      if (code.length) out.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (/^\|.*\|$/.test(line.trim())) {
      flushProse();
      if (RULE.test(line.trim())) continue;
      const cells = splitRow(line);
      if (RULE.test((lines[i + 1] ?? '').trim())) {
        header = cells;
        continue;
      }
      out.push({ kind: 'table-row', text: cells.filter(Boolean).join(' | '), cells, ...(header ? { header } : {}) });
      continue;
    }
    header = undefined;
    if (BULLET.test(line)) {
      flushProse();
      out.push({ kind: 'list-item', text: line.replace(BULLET, '').trim() });
      continue;
    }
    prose.push(line);
  }
  flushProse();
  return out;
}

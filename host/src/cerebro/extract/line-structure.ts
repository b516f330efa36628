// Structure of formats that only have lines (plain text, PDF text from pdftotext): shell command lines and bulleted
// or numbered items are told apart from running prose, so they keep their kind through chunking.
import type { BlockKind } from './types.js';

/** A shell prompt ("$ orden", "# orden") followed by something that looks like a command, not a Markdown title. */
const COMMAND = /^\s*[$#] +[a-z0-9./_-]/;
/** A bullet ("•", "-", "*", "·", "–") or a step number ("1.", "2)") opening a list item. */
const ITEM = /^\s*(?:[•\-*·–▪◦]|\d{1,2}[.)])\s+\S/;

export interface LineBlock {
  text: string;
  kind: BlockKind;
}

/** Splits one paragraph (lines separated by single newlines) into prose, command and list item blocks, in order. */
export function structureLines(paragraph: string): LineBlock[] {
  const out: LineBlock[] = [];
  let current: LineBlock | null = null;
  const close = () => {
    if (current && current.text.trim())
      out.push({
        kind: current.kind,
        text: current.kind === 'code' ? current.text.replace(/\s+$/, '') : current.text.trim(),
      });
    current = null;
  };
  for (const line of paragraph.split('\n')) {
    if (COMMAND.test(line)) {
      // Consecutive command lines are one code block, verbatim.
      if (current?.kind !== 'code') {
        close();
        current = { kind: 'code', text: line.trim() };
      } else current.text += `\n${line.trim()}`;
      continue;
    }
    if (ITEM.test(line)) {
      close();
      current = { kind: 'list-item', text: line.trim() };
      continue;
    }
    if (current?.kind === 'code') close(); // output or prose after a command is not part of it
    if (!current) current = { kind: 'paragraph', text: line };
    else current.text += `\n${line}`;
  }
  close();
  return out;
}

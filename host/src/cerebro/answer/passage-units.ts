// The answerable units of a stored passage: sentences of its prose, list items, code blocks and command lines
// (verbatim), and table rows with their header. Each code unit remembers the sentence that introduces it.
import { splitSentences } from '../text/sentences.js';
import { parseUnits, type UnitKind } from '../text/units.js';

export interface AnswerUnit {
  kind: UnitKind;
  text: string;
  /** Position of the unit in its passage. */
  position: number;
  cells?: string[];
  header?: string[];
  /** For code: position of the sentence just before it, when that sentence introduces it. */
  intro?: number;
}

/** A shell prompt or comment line ("$ tar …", "# apt …") is a command, even inside prose (older passages, PDFs). */
const COMMAND_LINE = /^[$#]\s+[a-z0-9./_-]/;

/** Paragraphs of prose with hard line wraps (PDF, plain text) rejoined into sentences; command lines stand alone. */
export function passageSentences(text: string): string[] {
  const paragraphs: string[] = [];
  let current = '';
  const flush = () => {
    if (current) paragraphs.push(current);
    current = '';
  };
  const lines = text.split('\n').map((l) => l.trim());
  lines.forEach((l, i) => {
    if (!l) {
      flush();
      return;
    }
    if (COMMAND_LINE.test(l)) {
      flush();
      paragraphs.push(l);
      return;
    }
    current = current ? `${current} ${l}` : l;
    const next = lines[i + 1] ?? '';
    // A line ends its paragraph at final punctuation, or when it is a short label ("Nota", a table title)
    // followed by a capitalised line: wrapped lines of running text do not look like that.
    const label = !current.includes(' ') || (current.length < 40 && /^\p{Lu}/u.test(next));
    if (/[.!?:;…]$/.test(l) || label || COMMAND_LINE.test(next)) flush();
  });
  flush();
  return paragraphs.flatMap((p) => (COMMAND_LINE.test(p) ? [p] : splitSentences(p)));
}

/**
 * A sentence that announces the code after it: it ends in a colon, or says "como se muestra", "la siguiente
 * orden", "escriba", "ejecute", "as follows", "run"…
 */
const ANNOUNCES =
  /(:\s*$)|\b(como se muestra|como sigue|lo siguiente|la siguiente|el siguiente|las siguientes|los siguientes|a continuaci[oó]n|de esta (forma|manera)|as[ií]:|escrib[ae]|ejecut[ae]|teclee|us[ae] la orden|con la orden|mediante|as follows|the following|as shown|run|type|execute)\b/i;

export const announces = (sentence: string): boolean => ANNOUNCES.test(sentence);

export function passageUnits(text: string): AnswerUnit[] {
  const units: AnswerUnit[] = [];
  for (const part of parseUnits(text)) {
    if (part.kind === 'prose') {
      for (const s of passageSentences(part.text)) {
        const command = COMMAND_LINE.test(s);
        const previous = units[units.length - 1];
        units.push({
          kind: command ? 'code' : 'sentence',
          text: s,
          position: units.length,
          ...(command && previous?.kind === 'sentence' ? { intro: previous.position } : {}),
        });
      }
      continue;
    }
    const previous = units[units.length - 1];
    const unit: AnswerUnit = { kind: part.kind, text: part.text, position: units.length };
    if (part.cells) unit.cells = part.cells;
    if (part.header) unit.header = part.header;
    if (part.kind === 'code' && previous?.kind === 'sentence') unit.intro = previous.position;
    units.push(unit);
  }
  return units;
}

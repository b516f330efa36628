// Sentence splitting with Intl.Segmenter, applied per paragraph (it is very slow on whole large texts), plus a guard
// so that abbreviations such as "Dra.", "p. ej." or "EE. UU." do not end a sentence.

const segmenter = new Intl.Segmenter('es', { granularity: 'sentence' });

const ABBREVIATIONS = new Set([
  'sr',
  'sra',
  'srta',
  'dr',
  'dra',
  'lic',
  'ing',
  'arq',
  'prof',
  'sto',
  'sta',
  'ud',
  'uds',
  'vd',
  'vds',
  'etc',
  'ej',
  'p',
  'pág',
  'págs',
  'núm',
  'nº',
  'art',
  'cap',
  'fig',
  'vol',
  'ee',
  'uu',
  'aa',
  'av',
  'avda',
  'c',
  'cía',
  'tel',
  'mr',
  'mrs',
  'ms',
  'vs',
  'e.g',
  'i.e',
  'approx',
  'no',
  'st',
  'inc',
  'ltd',
  'jr',
]);

/** True when a segment ends in something that looks like an abbreviation rather than a sentence end. */
function endsInAbbreviation(segment: string): boolean {
  const m = /(?:^|[\s(])([\p{L}.º]{1,6})\.\s*$/u.exec(segment);
  if (!m) return false;
  const word = m[1]!.toLowerCase();
  return ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word) || /^(\p{L}\.)+\p{L}$/u.test(word);
}

/**
 * Intl.Segmenter grows much worse than linearly with its input, so a long "paragraph" (a text file whose lines are
 * separated by single newlines is one paragraph) is segmented in windows of this size, cut at a line break or a
 * sentence end inside the window.
 */
const WINDOW = 2000;

/** Index just past the last line break or sentence-ending punctuation followed by a space, or -1. */
function lastBoundary(text: string): number {
  let best = text.lastIndexOf('\n');
  for (const m of text.matchAll(/[.!?…]["»”')\]]?\s/g)) best = Math.max(best, m.index! + m[0].length - 1);
  return best;
}

export function splitSentences(paragraph: string): string[] {
  if (paragraph.length <= WINDOW) return segment(paragraph);
  const out: string[] = [];
  let start = 0;
  while (start < paragraph.length) {
    let end = Math.min(paragraph.length, start + WINDOW);
    if (end < paragraph.length) {
      const cut = lastBoundary(paragraph.slice(start, end));
      if (cut > WINDOW / 4) end = start + cut + 1;
    }
    out.push(...segment(paragraph.slice(start, end)));
    start = end;
  }
  return out;
}

/**
 * A sentence of technical prose may open with inline code ("…cuando ya no sea necesario. `apt-mark auto paquete`
 * marcará el paquete…"): the segmenter only ends a sentence before a capital letter, so the two would read as one
 * long sentence. Final punctuation, a space and a backtick (or a quote mark before one) end the sentence there.
 */
const CODE_OPENS_SENTENCE = /(?<=[.!?…]["»”')\]]?)\s+(?=[«"“']?`)/u;

function segment(paragraph: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const { segment } of segmenter.segment(paragraph)) {
    for (const piece of splitAtCode(segment)) {
      pending += piece;
      if (endsInAbbreviation(pending)) continue;
      const s = pending.trim();
      if (s) out.push(s);
      pending = '';
    }
  }
  const rest = pending.trim();
  if (rest) out.push(rest);
  return out;
}

/** A segment cut where a sentence opening with inline code begins (each piece keeps its trailing space). */
function splitAtCode(segment: string): string[] {
  if (!segment.includes('`')) return [segment];
  const pieces: string[] = [];
  let rest = segment;
  for (let m = CODE_OPENS_SENTENCE.exec(rest); m && m.index > 0; m = CODE_OPENS_SENTENCE.exec(rest)) {
    const end = m.index + m[0].length;
    pieces.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  pieces.push(rest);
  return pieces;
}

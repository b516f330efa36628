// Sentence splitting with Intl.Segmenter, applied per paragraph (it is very slow on whole large texts), plus a guard
// so that abbreviations such as "Dra.", "p. ej." or "EE. UU." do not end a sentence.

const segmenter = new Intl.Segmenter('es', { granularity: 'sentence' });

const ABBREVIATIONS = new Set([
  'sr', 'sra', 'srta', 'dr', 'dra', 'lic', 'ing', 'arq', 'prof', 'sto', 'sta', 'ud', 'uds', 'vd', 'vds', 'etc', 'ej',
  'p', 'pág', 'págs', 'núm', 'nº', 'art', 'cap', 'fig', 'vol', 'ee', 'uu', 'aa', 'av', 'avda', 'c', 'cía', 'tel',
  'mr', 'mrs', 'ms', 'vs', 'e.g', 'i.e', 'approx', 'no', 'st', 'inc', 'ltd', 'jr',
]);

/** True when a segment ends in something that looks like an abbreviation rather than a sentence end. */
function endsInAbbreviation(segment: string): boolean {
  const m = /(?:^|[\s(])([\p{L}.º]{1,6})\.\s*$/u.exec(segment);
  if (!m) return false;
  const word = m[1]!.toLowerCase();
  return ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word) || /^(\p{L}\.)+\p{L}$/u.test(word);
}

export function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const { segment } of segmenter.segment(paragraph)) {
    pending += segment;
    if (endsInAbbreviation(pending)) continue;
    const s = pending.trim();
    if (s) out.push(s);
    pending = '';
  }
  const rest = pending.trim();
  if (rest) out.push(rest);
  return out;
}

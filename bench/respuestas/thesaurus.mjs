// Debian's Spanish thesaurus (package mythes-es) as a map from a word's Spanish stem to the stems of its single-word
// synonyms, closest first. Used by the vocabulary trials (vocabulary-trial.mjs, vocabulary-shared.mjs); not by the
// engine (see the README for the figures that decided it).
import { existsSync, readFileSync } from 'node:fs';
import { cerebro } from '../support/cerebro-corpus.mjs';

export const THESAURUS = '/usr/share/mythes/th_es_ES_v2.dat';
const { termOf, words } = cerebro;

/** Stem → synonym stems (ordered, no repeats); null when the package is not installed. */
export function loadThesaurus(file = THESAURUS) {
  if (!existsSync(file)) return null;
  const lines = new TextDecoder('latin1').decode(readFileSync(file)).split('\n');
  const synonyms = new Map();
  for (let i = 1; i < lines.length; i++) {
    const [head, count] = lines[i].split('|');
    const n = Number(count);
    if (!head || !Number.isInteger(n)) continue;
    const own = words(head);
    const stems = [];
    for (let j = 1; j <= n; j++) {
      for (const s of (lines[i + j] ?? '').split('|').slice(1)) {
        const w = words(s);
        if (w.length === 1) stems.push(termOf(w[0], 'es'));
      }
    }
    i += n;
    if (own.length !== 1) continue;
    const key = termOf(own[0], 'es');
    const known = synonyms.get(key) ?? [];
    for (const s of stems) if (s !== key && !known.includes(s)) known.push(s);
    synonyms.set(key, known);
  }
  return synonyms;
}

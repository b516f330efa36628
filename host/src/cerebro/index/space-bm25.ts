// BM25 of candidate passages with the statistics of their own space (see space-stats.ts). FTS5 finds the candidates
// (its ranking, over every space's statistics, only decides which few dozen are looked at); this decides their order.
import { foldAccents, termOf, words, type Language } from '../text/analyzer.js';
import { STOPWORDS_EN, STOPWORDS_ES } from '../text/stopwords.js';
import { idfOf } from './space-stats.js';

/** BM25's usual constants, FTS5's too. */
const K1 = 1.2;
const B = 0.75;

export interface SpaceBm25Input {
  /** The question's term groups (alternatives of one word: its stems in each language searched). */
  groups: readonly string[][];
  /** Per group, in how many of the space's passages one of its terms occurs (the most frequent alternative). */
  df: readonly number[];
  /** Passages in the space. */
  passages: number;
  /** Mean passage length in the space, as `passageLength` measures it. */
  meanLength: number;
  languages: readonly Language[];
  /** Weight of a heading occurrence relative to one in the text. */
  headingWeight: number;
}

const isStopword = (w: string) => {
  const f = foldAccents(w);
  return STOPWORDS_ES.has(f) || STOPWORDS_EN.has(f);
};

/** The length BM25 normalises by: the words indexed of the heading path and text (stopwords are not indexed). */
export const passageLength = (p: { text: string; headings: readonly string[] }): number =>
  words(p.text).filter((w) => !isStopword(w)).length +
  words(p.headings.join('\n')).filter((w) => !isStopword(w)).length;

/** Folded first letters a word must start with to be worth stemming: a stem begins the word it comes from. */
const PREFIX = 3;

/** How often each group occurs in a text (a word counts for a group when its term in any language is one of it). */
export function groupFrequencies(text: string, groups: readonly string[][], languages: readonly Language[]): number[] {
  const groupOf = new Map<string, number[]>();
  const prefixes = new Set<string>();
  let short = false;
  groups.forEach((alts, g) => {
    for (const t of new Set(alts)) {
      groupOf.set(t, [...(groupOf.get(t) ?? []), g]);
      prefixes.add(t.slice(0, PREFIX));
      short ||= t.length < PREFIX;
    }
  });
  const tf = groups.map(() => 0);
  for (const w of words(text)) {
    // Most words of a passage are none of the question's: only those sharing a term's first letters are stemmed.
    // (A term shorter than that may come from a longer word: then every word is stemmed.)
    if (!short && !prefixes.has(foldAccents(w.slice(0, PREFIX + 1)).slice(0, PREFIX))) continue;
    const hit = new Set<number>();
    for (const lang of languages) for (const g of groupOf.get(termOf(w, lang)) ?? []) hit.add(g);
    for (const g of hit) tf[g]!++;
  }
  return tf;
}

/** The space-level BM25 of one passage for the question (higher is better; 0 when it holds no question word). */
export function spaceBm25(p: { text: string; headings: readonly string[] }, input: SpaceBm25Input): number {
  const body = groupFrequencies(p.text, input.groups, input.languages);
  const heading = p.headings.length
    ? groupFrequencies(p.headings.join('\n'), input.groups, input.languages)
    : body.map(() => 0);
  const norm = K1 * (1 - B + (B * passageLength(p)) / Math.max(1, input.meanLength));
  let score = 0;
  input.groups.forEach((_, g) => {
    const tf = body[g]! + input.headingWeight * heading[g]!;
    if (tf > 0) score += idfOf(input.passages, input.df[g]!) * ((tf * (K1 + 1)) / (tf + norm));
  });
  return score;
}

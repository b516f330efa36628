// BM25 of candidate passages with the statistics of their own space (see space-stats.ts). FTS5 finds the candidates
// (its ranking, over every space's statistics, only decides which few dozen are looked at); this decides their order.
import { foldAccents, termOf, words, type Language } from '../text/analyzer.js';
import { withoutLinkSchemes } from '../text/link-schemes.js';
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
  /**
   * The question's words as typed (lower case, accents folded), one per group: a passage that says a word in the very
   * form asked scores a little more than one saying only a relative of its stem (EXACT_FORM_WEIGHT).
   */
  exactWords?: readonly string[];
  /**
   * Per group, with `exactWords`: true for a word the question says only inside a technical identifier
   * (text/identifiers.ts `literalWords`), counted only where a text says its very form, never a relative of its stem.
   */
  literal?: readonly boolean[];
}

/**
 * Weight of an occurrence of the question's own word form, on top of its stem's. Stemming joins "instalado",
 * "instalación" and "instalar" into one common term, so in a large manual every passage about installing ties on it;
 * the form asked is the more precise sign. Measured on the labelled sets (recall@5, every key in the top 5 passages,
 * bench/respuestas/recall.mjs): at 0 / 0.3 / 0.5 / 1, muebles dev 19 / 20 / 20 / 20 of 22, the project's own set
 * 85 / 86 / 87 / 87 of 103, debian-handbook validacion 17 / 19 / 19 / 19 of 19; no other corpus moved.
 */
export const EXACT_FORM_WEIGHT = 0.5;

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
  return groupCounts(text, groups, languages).stems;
}

/**
 * How often each group occurs in a text (`stems`) and, with `exactWords`, how often its word occurs in the very form
 * the question used (`exact`, folded), in one pass over the text's words. A `literal` group's `stems` count is its
 * `exact` one: the part of an identifier is that very word, not any word of its stem.
 */
function groupCounts(
  text: string,
  groups: readonly string[][],
  languages: readonly Language[],
  exactWords?: readonly string[],
  literal?: readonly boolean[],
): { stems: number[]; exact: number[] } {
  const groupOf = new Map<string, number[]>();
  const prefixes = new Set<string>();
  let short = false;
  const literalOnly = (g: number) => exactWords !== undefined && literal?.[g] === true;
  groups.forEach((alts, g) => {
    if (literalOnly(g)) return;
    for (const t of new Set(alts)) {
      groupOf.set(t, [...(groupOf.get(t) ?? []), g]);
      prefixes.add(t.slice(0, PREFIX));
      short ||= t.length < PREFIX;
    }
  });
  const exactOf = new Map<string, number>();
  exactWords?.forEach((w, g) => {
    exactOf.set(w, g);
    prefixes.add(w.slice(0, PREFIX));
    short ||= w.length < PREFIX;
  });
  const tf = groups.map(() => 0);
  const exact = groups.map(() => 0);
  for (const w of words(text)) {
    // Most words of a passage are none of the question's: only those sharing a term's first letters are stemmed.
    // (A term shorter than that may come from a longer word: then every word is stemmed.)
    if (!short && !prefixes.has(foldAccents(w.slice(0, PREFIX + 1)).slice(0, PREFIX))) continue;
    const hit = new Set<number>();
    for (const lang of languages) for (const g of groupOf.get(termOf(w, lang)) ?? []) hit.add(g);
    for (const g of hit) tf[g]!++;
    const same = exactOf.size ? exactOf.get(foldAccents(w)) : undefined;
    if (same !== undefined) exact[same]!++;
  }
  groups.forEach((_, g) => {
    if (literalOnly(g)) tf[g] = exact[g]!;
  });
  return { stems: tf, exact };
}

/**
 * The space-level BM25 of one passage for the question (higher is better; 0 when it holds no question word).
 * Tried and dropped: a term-proximity bonus (each pair of question words within 8–30 words of each other in the text
 * adding 0.75–3 × the rarer word's IDF, saturated like a term count, with or without that IDF capped by everyday
 * Spanish's). Recall@5 on the dev split rose (debian-handbook 36 → up to 40 of 43, FTS5 37; the project's own set 89 →
 * up to 92 of 103; validacion unchanged), but the passages it brought in, saying the question's words close together,
 * changed which sentences answers took, and retrained on the new pools the decision model needed a higher threshold:
 * its held-out count fell at each of 16 settings (180 → 155–178 of 230; 171–178 at windows 8–20). Pairs counted within
 * one sentence instead (text split at . ! ? : ; and line breaks; per pair of question words, the rarer one's IDF × the
 * sentences holding both, saturated like a term count; scaled 0.25–3, or that sum divided by the question's words − 1;
 * IDF with or without the everyday-Spanish cap), each retrained, 17 settings on the base of aac9487 (held-out 177 of
 * 230 at threshold 0.625, debian-handbook dev 36 of 43): from scale 0.5 (divided: 1) debian-handbook reached 37, FTS5's
 * count, but held-out fell to 169–175 (169–177 at 0.625 itself): at 9 of those 13 settings one more of the shared set's
 * unanswerable dev questions was answered at 0.625 and the threshold rose to 0.650, and debian-handbook's own held-out
 * answers fell 35 → 31–35 of 49 as the passages brought in changed which sentences were taken. The project's own set
 * answered 72.8–78.6 % (77.7 %); validacion declined fell 95.2 → 90.5 % at 3 settings. Below that scale: 36, held-out
 * 174–176.
 * Diagnosed again on that base: every engine miss on debian-handbook dev is a ranking miss (the passage with the keys
 * is a candidate), and FTS5's two wins come from what it does not do. One passage tops FTS5 only through the
 * question's "saber" and "está" (a framing verb and a stopword, left out here on purpose; without them FTS5 ranks it
 * below 10th too); the other because FTS5 does not stem: its rivals say "repositorio", which "repositorios" misses
 * there, and "list"/"sources" stay apart from Spanish "lista" (df 122/65 as typed, 291/106 stemmed). Recall@5 only,
 * no retraining: K1 0.9–2, B 0.5–0.9, heading weight 1–3, ancestor headings at 0–1 of the passage's own, exact-form
 * weight 0–2 (0.5–3 with the typed form's df estimated from the candidates), length counting stopwords: 36 at every
 * setting. Reciprocal rank fusion with plain FTS5's order (40 deep, k 10–100, its list weighted 0.5–1; it would also
 * need an unstemmed index): 37, but muebles dev 22 → 20 and manual-empleado dev 22 → 21 at every such setting.
 * Why proximity costs answers (window 8, scale 1: 37; retrained, held-out 172 at 0.625, 168 at the chosen 0.675): of
 * 8 held-out answers lost, 1 was declined, 1 lost its passage from the top 5, 6 kept a passage with the keys but took
 * units from the passages brought in (units compete on coverage, which words said close together raise). Taking units
 * only from passages within 0.6–0.85 of the best one's probability already costs held-out answers on this ranking
 * (177 → 174–166) and left the proximity ranking's at 168.
 * Technical identifiers (text/identifiers.ts): their parts are now counted only in their very form (`literal`; df
 * stays the stem's, an upper bound: the index holds stems only), which changed no top 5, answer or held-out count (177
 * of 230 at 0.625; validacion 75 of 95, 95.2 % declined). Scoring the identifier as one unit too (its parts as
 * consecutive words, heading occurrences weighted as any, df its rarest part's, added at 0.5–2 × its IDF, or in
 * place of its parts at 1–1.5) left every corpus's recall@5 as it was (debian-handbook dev 36): dh-018's passage
 * ("¿…archivos aparte en vez de en sources.list?") rose from 18th to 13th at best, because its 29 rivals in section
 * 6.1 carry `sources.list` in that section's heading; added at 0.5 or more it cost dh-031's answer (every passage
 * naming `/etc/passwd` rose over the one with `vipw`), dev debian-handbook answered 74.4 → 72.1 %.
 * Stopwords are counted here as any word (their stem may be a content word's: "como" → "com" as "comando", "para" →
 * "par" as "parar"), though the index and `passageLength` leave them out. Left out here too: no dev top 5 changed,
 * debian-handbook validacion 18 → 17 of 19 (dh-002's passage with the keys held "comando" only through "como");
 * left out of the decision features' terms as well (answer/relevance.ts `termsOf`), retrained: held-out 172 → 174 of
 * 230 (0.650; 177 at 0.625 before the index left link schemes out), the shipped weights' figures unmoved. Not kept.
 */
export function spaceBm25(p: { text: string; headings: readonly string[] }, input: SpaceBm25Input): number {
  const exactWords = input.exactWords?.length === input.groups.length ? input.exactWords : undefined;
  const literal = input.literal?.length === input.groups.length ? input.literal : undefined;
  // A link's scheme is no word of the text (text/link-schemes.ts): pages of https links say nothing about HTTPS.
  const body = groupCounts(withoutLinkSchemes(p.text), input.groups, input.languages, exactWords, literal);
  const heading = p.headings.length
    ? groupCounts(p.headings.join('\n'), input.groups, input.languages, exactWords, literal)
    : { stems: body.stems.map(() => 0), exact: body.exact.map(() => 0) };
  const norm = K1 * (1 - B + (B * passageLength(p)) / Math.max(1, input.meanLength));
  const saturated = (tf: number) => (tf * (K1 + 1)) / (tf + norm);
  let score = 0;
  input.groups.forEach((_, g) => {
    const idf = idfOf(input.passages, input.df[g]!);
    const tf = body.stems[g]! + input.headingWeight * heading.stems[g]!;
    if (tf > 0) score += idf * saturated(tf);
    const exact = body.exact[g]! + input.headingWeight * heading.exact[g]!;
    if (exact > 0) score += EXACT_FORM_WEIGHT * idf * saturated(exact);
  });
  return score;
}

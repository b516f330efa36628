// A fixed background word-frequency prior for Spanish, shared by every space: in how many ~100-word chunks of everyday
// Spanish text each index term occurs (background-es.json, 40 KB, built by scripts/build-background-prior.mjs from
// the Debian package fortunes-es, none of the measured document sets). A space's own counts say how rare a word is in its
// documents; in a small space (a one-document FAQ of a dozen passages) nearly every word is rare and every word it
// lacks looks like the question's topic, so a paraphrase's generic word ("¿cuánto TIEMPO tarda…?") weighed like a
// name the documents never mention, and real questions were declined. Blended with the prior, a generic word weighs
// little wherever it is missing, a name unknown to general Spanish keeps its weight, and a large space's own counts
// outweigh the prior.
import shipped from './background-es.json' with { type: 'json' };

export interface BackgroundPrior {
  /** Chunks of background text counted. */
  documents: number;
  /** Per index term (analyzer.ts `termOf(word, 'es')`), the chunks holding it; rarer terms are left out. */
  df: Readonly<Record<string, number>>;
}

/**
 * Passages' worth of evidence the prior counts for in a space (a pseudo-count): a space of this many passages weighs
 * its words half by its own counts, half by the prior's. On the `dev` split of the shared QA set, each recalibrated
 * (`npm run calibrate`, with a prior that also counted manual pages): 100 answered 51.4 % and declined 92.3 %; 200
 * and 400 49.5 % and 96.2 %.
 */
export const PRIOR_STRENGTH = 100;

/** The chunks a term left out of the prior (held by fewer than the builder's minimum) is counted in. */
const UNLISTED_DOCS = 1;

/** The share of background chunks holding any of a word's alternative terms (the most frequent counts), smoothed. */
export function backgroundShare(prior: BackgroundPrior, terms: readonly string[]): number {
  let df = 0;
  for (const t of terms) df = Math.max(df, Object.hasOwn(prior.df, t) ? prior.df[t]! : 0);
  return (Math.max(df, UNLISTED_DOCS) + 0.5) / (prior.documents + 1);
}

/**
 * A word's document count in a space with the prior's expectation added as `strength` pseudo-passages: the passage
 * count and document count BM25's IDF is then taken over (`idfOf(passages, df)`).
 */
export function blendedCounts(
  space: { passages: number; df: number },
  share: number,
  strength = PRIOR_STRENGTH,
): { passages: number; df: number } {
  return { passages: space.passages + strength, df: space.df + strength * share };
}

/** The shipped prior. */
export const BACKGROUND_PRIOR: BackgroundPrior = shipped as BackgroundPrior;

// How much of a question a piece of text answers: the IDF-weighted share of the question's content words it holds.
// Rare words (the topic) weigh more than common ones, so "¿cómo configuro el proxy de APT?" needs "proxy" and
// "APT" far more than "configurar".
import { foldAccents, termOf, words } from '../text/analyzer.js';

export class Relevance {
  private readonly total: number;

  constructor(private readonly groups: readonly string[][], private readonly weights: readonly number[]) {
    this.total = weights.reduce((a, b) => a + b, 0);
  }

  /** Every term a text could be indexed under, in either language. */
  static termsOf(text: string): Set<string> {
    const out = new Set<string>();
    for (const w of words(text)) {
      out.add(termOf(w, 'es'));
      out.add(termOf(w, 'en'));
      out.add(foldAccents(w));
    }
    return out;
  }

  /** 0–1 share of the question's weight whose terms occur in `terms`. */
  coverage(terms: ReadonlySet<string>): number {
    if (this.total <= 0) return 0;
    let covered = 0;
    this.groups.forEach((alts, i) => {
      if (alts.some((t) => terms.has(t))) covered += this.weights[i]!;
    });
    return covered / this.total;
  }
}

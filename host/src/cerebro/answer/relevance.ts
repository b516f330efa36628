// How much of a question a piece of text answers: the IDF-weighted share of the question's content words it holds.
// Rare words (the topic) weigh more than common ones, so "¿cómo configuro el proxy de APT?" needs "proxy" and
// "APT" far more than "configurar".
import type { ModelJudgement } from '../index/retriever.js';
import { LANGUAGES, searchableTerms, termOf, words, type Language } from '../text/analyzer.js';
import { DEFAULT_ANSWER_OPTIONS } from './types.js';

/**
 * Default of `CEREBRO_RERANK_MIN_PROBABILITY`: a cross-encoder trained with binary cross-entropy says "relevant" at
 * probability 0.5 (logit 0), its own decision boundary.
 */
export const DEFAULT_RERANK_MIN_PROBABILITY = 0.5;

export class Relevance {
  private readonly total: number;

  /** `languages`: those the question was analysed in beyond Spanish and English (a space with French documents). */
  constructor(
    private readonly groups: readonly string[][],
    private readonly weights: readonly number[],
    private readonly languages: readonly Language[] = LANGUAGES,
  ) {
    this.total = weights.reduce((a, b) => a + b, 0);
  }

  /** How many content words (groups of alternative terms) the question has. */
  get groupCount(): number {
    return this.groups.length;
  }

  /** The question's weightiest content word (its topic: the rarest in the documents), by group index; null if none. */
  topicGroup(): number | null {
    let best: number | null = null;
    this.weights.forEach((w, i) => {
      if (best === null || w > this.weights[best]!) best = i;
    });
    return best;
  }

  /** Every term a text could be indexed under, in Spanish, English or another of the question's languages. */
  termsOf(text: string): Set<string> {
    return Relevance.termsOf(text, this.languages);
  }

  /** Every term a text could be indexed under, in Spanish, English and `languages`. */
  static termsOf(text: string, languages: readonly Language[] = LANGUAGES): Set<string> {
    const others = languages.filter((l) => !LANGUAGES.includes(l));
    const out = new Set<string>();
    for (const w of words(text)) {
      for (const t of searchableTerms(w)) out.add(t);
      for (const lang of others) out.add(termOf(w, lang));
    }
    return out;
  }

  /** The alternative terms of one content-word group. */
  groupTerms(group: number): readonly string[] {
    return this.groups[group] ?? [];
  }

  /** Indices of the question's content-word groups whose terms occur in `terms`. */
  groupsIn(terms: ReadonlySet<string>): Set<number> {
    const out = new Set<number>();
    this.groups.forEach((alts, i) => {
      if (alts.some((t) => terms.has(t))) out.add(i);
    });
    return out;
  }

  /**
   * 0–1 share of the question's weight whose terms occur in `terms`, or whose word an embedding model found close
   * in meaning (`close`: group indices, see vector/close-words.ts).
   */
  coverage(terms: ReadonlySet<string>, close?: ReadonlySet<number>): number {
    if (this.total <= 0) return 0;
    let covered = 0;
    this.groups.forEach((alts, i) => {
      if (close?.has(i) || alts.some((t) => terms.has(t))) covered += this.weights[i]!;
    });
    return covered / this.total;
  }
}

/**
 * A reranker's relevance probability on the scale of `minRelevance`, whose default was calibrated for the decision
 * model: two probabilities from different models mean different things at the same number, so comparing them
 * directly would accept passages the reranker itself judged irrelevant (or the reverse). The map is piecewise linear and
 * increasing: probability 0 → 0, the model's own threshold `minProbability` → the calibrated default, 1 → 1. So the
 * default `relevancia_minima` answers exactly where the model says "relevant", and a client raising or lowering it
 * is stricter or more lenient with the model as with full text.
 */
export function rerankRelevance(
  probability: number,
  minProbability = DEFAULT_RERANK_MIN_PROBABILITY,
  calibrated = DEFAULT_ANSWER_OPTIONS.minRelevance,
): number {
  const p = Math.min(1, Math.max(0, probability));
  const t = Math.min(0.999, Math.max(0.001, minProbability));
  return p <= t ? (p / t) * calibrated : calibrated + ((p - t) / (1 - t)) * (1 - calibrated);
}

/**
 * A reranker's verdict on a passage on the scale of `minRelevance` (`rerankRelevance`), or undefined when no reranker
 * judged it. A cross-encoder reads the whole question and passage, synonyms included: where it judged, its verdict
 * is the decision, in place of the decision model's estimate from lexical features.
 */
export function rerankedRelevance(passageId: number, judgement: ModelJudgement | null | undefined): number | undefined {
  const probability = judgement?.rerank?.get(passageId);
  return probability === undefined ? undefined : rerankRelevance(probability, judgement?.rerankMinProbability);
}

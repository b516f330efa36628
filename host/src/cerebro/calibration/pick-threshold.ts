// Calibration of answer-or-decline: from labelled questions judged by a decision model trained without their corpus
// (leave-one-corpus-out), the probability threshold that answers the most questions correctly, net of wrong answers,
// while declining (almost) every question the documents cannot answer. `bench/respuestas/
// calibrate.mjs` records the table this reads; the shipped model's `threshold` is its result.

/** One labelled question as the calibration script recorded it, judged by a model that never saw its corpus. */
export interface ScoredQuestion {
  question: string;
  corpus: string;
  /**
   * The labelled set the question comes from (the shared set, the project's own). Each set must decline enough on its
   * own: pooled, a set with easy unanswerable questions would hide one whose unanswerable questions are declined far
   * less often. Questions without it form one set.
   */
  set?: string;
  /** True when the documents answer it (it has keys); false for the questions they cannot answer. */
  answerable: boolean;
  /** The highest answer probability among its first retrieved passages: it is answered at thresholds up to this. */
  relevance: number;
  /**
   * For each candidate threshold (as a string, "0.400"), whether the answer given at that threshold holds the keys.
   * Absent or false for unanswerable questions and thresholds above `relevance` (no answer is given).
   */
  correctAt: Record<string, boolean>;
}

export interface ThresholdChoice {
  threshold: number;
  /** Answerable questions answered with their keys. */
  correct: number;
  /** Share of unanswerable questions declined at `threshold`. */
  declined: number;
  /** Questions answered (rightly or not). */
  claimed: number;
  /** Share of claimed answers that hold their keys (an unanswerable question answered counts as wrong). */
  precision: number;
}

/** Least share of unanswerable questions to decline. */
export const DEFAULT_MIN_DECLINED = 0.9;

export const thresholdKey = (t: number): string => t.toFixed(3);

/** The figures of one threshold over a table. */
export function thresholdFigures(table: readonly ScoredQuestion[], threshold: number): ThresholdChoice {
  const key = thresholdKey(threshold);
  const unanswerable = table.filter((q) => !q.answerable);
  const claimed = table.filter((q) => q.relevance >= threshold);
  const correct = table.filter((q) => q.answerable && q.relevance >= threshold && q.correctAt[key] === true).length;
  return {
    threshold,
    correct,
    claimed: claimed.length,
    declined:
      unanswerable.length === 0 ? 1 : unanswerable.filter((q) => q.relevance < threshold).length / unanswerable.length,
    precision: claimed.length === 0 ? 1 : correct / claimed.length,
  };
}

/** The least share of unanswerable questions declined at `threshold` by any one labelled set (`set`). */
export function leastSetDeclined(table: readonly ScoredQuestion[], threshold: number): number {
  const sets = new Set(table.map((q) => q.set));
  return Math.min(
    ...[...sets].map(
      (s) =>
        thresholdFigures(
          table.filter((q) => q.set === s),
          threshold,
        ).declined,
    ),
  );
}

/**
 * Among the thresholds declining at least `minDeclined` of the unanswerable questions of every labelled set
 * (`leastSetDeclined`), the one with the most correct answers net of wrong ones (a claimed answer without the keys costs as much as a right one gains: a confident wrong
 * answer is the failure users remember). Ties go to the higher threshold (same answers, fewer risks). With `shipped`
 * (the same questions judged by the model trained on all of them, the one shipped), a threshold must also decline
 * enough there: that model is not the held-out ones, and on the shared set it gave unanswerable questions higher
 * probabilities than they had held out (81 % declined where the held-out models declined 93 %). Null when no
 * threshold declines enough. Precision is reported beside it, not constrained: below its goal the fault is in the
 * answers composed from relevant passages, which a stricter threshold would only hide by declining more.
 */
export function pickThreshold(
  table: readonly ScoredQuestion[],
  candidates: readonly number[],
  minDeclined = DEFAULT_MIN_DECLINED,
  shipped?: readonly ScoredQuestion[],
): ThresholdChoice | null {
  let best: ThresholdChoice | null = null;
  const net = (f: ThresholdChoice) => 2 * f.correct - f.claimed;
  for (const t of [...candidates].sort((a, b) => a - b)) {
    const f = thresholdFigures(table, t);
    const declines =
      leastSetDeclined(table, t) >= minDeclined && (!shipped || leastSetDeclined(shipped, t) >= minDeclined);
    if (declines && (best === null || net(f) >= net(best))) best = f;
  }
  return best;
}

/** Thresholds the calibration tries: 0.05 to 0.95 in steps of 0.025. */
export const CANDIDATE_THRESHOLDS: readonly number[] = Array.from(
  { length: 37 },
  (_, i) => Math.round((0.05 + i * 0.025) * 1000) / 1000,
);

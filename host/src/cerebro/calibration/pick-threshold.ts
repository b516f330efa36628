// Calibration of answer-or-decline: from a labelled set, the `minRelevance` that answers the most questions
// correctly while still declining (almost) every question the documents cannot answer. `bench/respuestas/
// calibrate.mjs` records the scores table this reads; DEFAULT_ANSWER_OPTIONS.minRelevance is its result.

/** One labelled question as the calibration script recorded it. */
export interface ScoredQuestion {
  question: string;
  /** True when the documents answer it (it has keys); false for the questions they cannot answer. */
  answerable: boolean;
  /** The best relevance among its retrieved passages: the score the engine compares with `minRelevance`. */
  relevance: number;
  /**
   * For each candidate threshold (as a string, "0.40"), whether the answer given at that threshold holds a key.
   * Absent or false for unanswerable questions and thresholds above `relevance` (no answer is given).
   */
  correctAt: Record<string, boolean>;
}

export interface ThresholdChoice {
  threshold: number;
  correct: number;
  /** Share of unanswerable questions declined at `threshold`. */
  declined: number;
}

/**
 * The candidate with the most correct answers among those that decline at least `minDeclined` of the unanswerable
 * questions; ties go to the higher threshold (same answers, fewer risks). Null when no candidate declines enough.
 */
export function pickThreshold(table: readonly ScoredQuestion[], candidates: readonly number[], minDeclined = 0.9): ThresholdChoice | null {
  const unanswerable = table.filter((q) => !q.answerable);
  let best: ThresholdChoice | null = null;
  for (const threshold of [...candidates].sort((a, b) => a - b)) {
    const key = threshold.toFixed(2);
    const declined = unanswerable.length === 0 ? 1 : unanswerable.filter((q) => q.relevance < threshold).length / unanswerable.length;
    if (declined < minDeclined) continue;
    const correct = table.filter((q) => q.answerable && q.relevance >= threshold && q.correctAt[key] === true).length;
    if (best === null || correct >= best.correct) best = { threshold, correct, declined };
  }
  return best;
}

/** Thresholds the calibration tries: 0.20 to 0.95 in steps of 0.05. */
export const CANDIDATE_THRESHOLDS: readonly number[] = Array.from({ length: 16 }, (_, i) => Math.round((0.2 + i * 0.05) * 100) / 100);

// Reciprocal rank fusion: merges ranked lists without comparing their incompatible scores (BM25 vs cosine).

/** Fused score per id: sum over lists of 1 / (k + rank), rank 1-based. k = 60 is the usual damping constant. */
export function reciprocalRankFusion(lists: readonly (readonly number[])[], k = 60): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}

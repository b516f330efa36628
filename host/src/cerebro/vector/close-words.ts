// Which of a question's content words a passage covers by meaning rather than by spelling: a word counts as covered
// by a passage when the cosine similarity of the word's embedding (embedded as a query, like the question) and the
// passage's stored embedding reaches a threshold. This is how, with an embedding model and no reranker, "automóvil"
// is covered by a passage about "el coche" and the question is answered instead of declined.

/** Default of `CEREBRO_EMBEDDING_MIN_SIMILARITY`; see the README: cosine scales differ between models. */
export const DEFAULT_MIN_WORD_SIMILARITY = 0.8;

/** Cosine similarity of two L2-normalised vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/**
 * For each passage, the indices of the words (in `wordVectors` order, one per content-word group of the question)
 * whose similarity to it reaches `minSimilarity`. Passages without a stored vector cover nothing by meaning.
 */
export function closeWords(
  wordVectors: readonly Float32Array[],
  passageVectors: ReadonlyMap<number, Float32Array>,
  minSimilarity: number,
): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const [id, passage] of passageVectors) {
    const close = new Set<number>();
    wordVectors.forEach((word, i) => {
      if (cosine(word, passage) >= minSimilarity) close.add(i);
    });
    out.set(id, close);
  }
  return out;
}

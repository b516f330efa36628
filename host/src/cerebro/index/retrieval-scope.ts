// Narrowing a question to some documents (issue #27 item 3: `documentos`, `etiquetas`). The index ranks a space as a
// whole, so a narrowed retrieval takes deeper lists and keeps the narrowed documents' passages: the candidate set
// shrinks, the scores and their order are the index's own.

/** Documents a retrieval may draw from, by id; absent or null: the whole space. */
export type RetrievalScope = ReadonlySet<string> | null;

/** First pass: this many times the wanted depth. */
const SCOPE_OVERFETCH = 8;
/** Second pass, when the first kept too few and the list was not exhausted: this many passages. */
const MAX_SCOPED_DEPTH = 2000;

/**
 * The first `k` entries of a ranked list that `keep` accepts, reading the list deeper (`fetch(depth)`) instead of
 * narrowing the ranking itself.
 */
export async function keepInScope<T>(
  fetch: (depth: number) => Promise<T[]> | T[],
  keep: (item: T) => boolean,
  k: number,
): Promise<T[]> {
  const depth = Math.max(k, 1) * SCOPE_OVERFETCH;
  let listed = await fetch(depth);
  let kept = listed.filter(keep);
  if (kept.length < k && listed.length >= depth && depth < MAX_SCOPED_DEPTH) {
    listed = await fetch(MAX_SCOPED_DEPTH);
    kept = listed.filter(keep);
  }
  return kept.slice(0, k);
}

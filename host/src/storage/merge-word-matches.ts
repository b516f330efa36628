// How a match plan's lists become one candidate list, shared by every backend's matcher so they order candidates
// alike (storage/port/passage-index-repository.ts).
import type { MatchedRow } from './port/passage-index-repository.js';

/**
 * The conjunctive rows, then each word's rows taken in turn (every word's first, then every word's second…), each
 * passage once, so that no word's passages crowd out another's.
 */
export function mergeWordMatches(conjunctive: MatchedRow[], lists: MatchedRow[][], wordDepth: number): MatchedRow[] {
  const rows = [...conjunctive];
  const seen = new Set(rows.map((r) => r.id));
  for (let at = 0; at < wordDepth; at++)
    for (const list of lists) {
      const r = list[at];
      if (r && !seen.has(r.id)) {
        seen.add(r.id);
        rows.push(r);
      }
    }
  return rows;
}

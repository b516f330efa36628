// Builds FTS5 MATCH expressions from analysed query terms. Every term is quoted, so user text can never inject
// FTS5 operators, and the space token is ANDed in so the index itself only yields the space's rows.
import { spaceKey } from '../../storage/space-key.js';

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * `{space_key}: "k…" AND {heading body}: (alt1 OR alt2 OR …)` (any word), or with `allWords` one such group per
 * question word, all required. Null when the question has no content word.
 */
export function matchExpression(space: string, groups: readonly string[][], allWords = false): string | null {
  const live = groups.map((g) => [...new Set(g)].filter(Boolean)).filter((g) => g.length > 0);
  if (live.length === 0) return null;
  const anyOf = (terms: string[]) => `{heading body} : (${terms.map(quote).join(' OR ')})`;
  const words = allWords ? live.map(anyOf).join(' AND ') : anyOf([...new Set(live.flat())]);
  return `{space_key} : ${quote(spaceKey(space))} AND ${words}`;
}

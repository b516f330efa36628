// Builds FTS5 MATCH expressions from analysed query terms. Every term is quoted, so user text can never inject
// FTS5 operators, and the space token is ANDed in so the index itself only yields the space's rows.
import { spaceKey } from './space-key.js';

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** `{space_key}: "k…" AND {heading body}: (alt1 OR alt2 OR …)`, or null when the question has no content word. */
export function matchExpression(space: string, groups: readonly string[][]): string | null {
  const terms = [...new Set(groups.flat())].filter(Boolean);
  if (terms.length === 0) return null;
  return `{space_key} : ${quote(spaceKey(space))} AND {heading body} : (${terms.map(quote).join(' OR ')})`;
}

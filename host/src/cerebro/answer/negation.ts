// Which of a question's content words a text says only negated ("una versión no instalada", "not installed"): such a
// unit talks about the opposite of what an affirmative question asks ("¿Qué prioridad tiene la versión instalada?"),
// so it does not cover that word.
import { foldAccents, words } from '../text/analyzer.js';
import type { Relevance } from './relevance.js';

/** Words that negate the word right after them. "sin" is left out: "sin coste" answers "¿cuánto cuesta?". */
const NEGATORS = new Set(['no', 'nunca', 'jamas', 'not', 'never', 'non']);

/** Any negator at all: most units have none, and then no word of theirs needs looking up. */
const ANY_NEGATOR = /(^|[^\p{L}])(no|nunca|jam[aá]s|not|never|non)([^\p{L}]|$)/iu;

/** Indices of the question's word groups that `text` says, and says only right after a negator. */
export function negatedGroups(text: string, relevance: Relevance): Set<number> {
  if (!ANY_NEGATOR.test(text)) return new Set();
  const all = words(text);
  const plain = new Set<number>();
  const negated = new Set<number>();
  all.forEach((w, i) => {
    const groups = relevance.groupsIn(relevance.termsOf(w));
    if (groups.size === 0) return;
    const target = i > 0 && NEGATORS.has(foldAccents(all[i - 1]!)) ? negated : plain;
    for (const g of groups) target.add(g);
  });
  for (const g of plain) negated.delete(g);
  return negated;
}

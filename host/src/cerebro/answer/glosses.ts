// What the documents themselves say a word means: a gloss in parentheses ("guardia (on-call)", "núcleo (kernel)",
// "CFDI (factura electrónica)") or an acronym with its expansion ("Domain Name System (DNS)"). A question may use
// either side ("¿Cuánto pagan por una semana de on-call?" over a handbook that says "guardia" everywhere but once);
// read from the retrieved passages, the pair makes the question's word count where the document uses the other.
import { queryTermGroups, words } from '../text/analyzer.js';
import { contentQuestion } from './question-words.js';

/** One pair a text states: the words glossed and the words of their gloss. */
export interface Gloss {
  term: string[];
  gloss: string[];
}

/** A word and the parenthesis after it: "guardia (on-call)", "CFDI (factura electrónica)". */
const GLOSSED = /([\p{L}][\p{L}\p{N}.-]*)\s+\(([^()\n]{2,40})\)/gu;
/** An acronym: "DNS", "CFDI", "PCs". */
const ACRONYM = /^\p{Lu}{2,6}s?$/u;
/** Most words a gloss has: longer parentheses are remarks ("(si cae en fin de semana, lo tomas…)"), not glosses. */
const MAX_GLOSS_WORDS = 3;
/** Words a parenthetical remark opens with, which a gloss does not ("(o en videollamada…)", "(ver apartado 5)"). */
const REMARK_OPENING =
  /^(o|u|y|e|ver|véase|vease|por|p\.|ej\.|si|de|del|en|con|sin|para|que|como|hasta|desde|solo|sólo|incluido|incluida|aprox\.?|e\.\s?g\.|i\.\s?e\.|see|or|and|for|if|from|with)\b/iu;
/** Words skipped when matching an acronym's letters to the words before it ("Servicio de Nombres de Dominio"). */
const LINKING = new Set(['de', 'del', 'la', 'el', 'los', 'las', 'y', 'e', 'of', 'the', 'and', 'for', 'a']);

/**
 * The words before `end` whose initials spell `acronym` ("Domain Name System" for "DNS"), linking words between them
 * allowed; null when they do not spell it.
 */
function expansionBefore(before: string[], acronym: string): string[] | null {
  const letters = acronym.replace(/s$/, '').toLowerCase();
  const out: string[] = [];
  let i = before.length - 1;
  for (let k = letters.length - 1; k >= 0; k--) {
    while (i >= 0 && LINKING.has(before[i]!.toLowerCase()) && out.length > 0) i--;
    const word = before[i];
    if (!word || word[0]!.toLowerCase() !== letters[k]) return null;
    out.unshift(word);
    i--;
  }
  return out;
}

/** The glosses a text states. */
export function glossesIn(text: string): Gloss[] {
  const out: Gloss[] = [];
  for (const m of text.matchAll(GLOSSED)) {
    const head = m[1]!.replace(/[.-]+$/, '');
    const inner = m[2]!.trim();
    if (ACRONYM.test(inner)) {
      const before = text
        .slice(0, m.index! + m[1]!.length)
        .split(/\s+/)
        .filter(Boolean)
        .slice(-12);
      const expansion = expansionBefore(before, inner);
      if (expansion) out.push({ term: [inner], gloss: expansion });
      continue;
    }
    const glossWords = inner.split(/\s+/);
    if (glossWords.length > MAX_GLOSS_WORDS || /[\d,;:!?¿¡]/.test(inner) || REMARK_OPENING.test(inner)) continue;
    if (/\d/.test(head) || words(head).length === 0) continue;
    out.push({ term: [head], gloss: glossWords });
  }
  return out;
}

/** The content words of some words as a question's groups of alternative terms. */
const contentTerms = (ws: readonly string[]): string[][] => queryTermGroups(contentQuestion(ws.join(' ')));

/**
 * The question's word groups with the other side of every gloss the texts state added to the words that say one
 * side: "on-call" also counts where a passage says "guardia", "CFDI" where it says "factura electrónica". A side of
 * several words is said when each of its words is.
 */
export function withGlosses(groups: readonly string[][], texts: readonly string[]): string[][] {
  const out = groups.map((g) => [...g]);
  const groupOf = (alternatives: readonly string[]): number =>
    groups.findIndex((g) => g.some((t) => alternatives.includes(t)));
  for (const text of texts) {
    for (const { term, gloss } of glossesIn(text)) {
      for (const [side, other] of [
        [term, gloss],
        [gloss, term],
      ] as const) {
        const said = contentTerms(side);
        const at = said.map(groupOf);
        if (said.length === 0 || at.some((i) => i < 0)) continue;
        const added = contentTerms(other).flat();
        for (const i of new Set(at)) out[i] = [...new Set([...out[i]!, ...added])];
      }
    }
  }
  return out;
}

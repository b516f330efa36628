// "Which X" questions ("¿Qué programa usa FreedomBox para las copias?", "¿Qué navegador se recomienda…?") ask for a
// name: the answer is the unit that says what X is called ("Borg es un programa de backup…"), not one that merely
// repeats the question's words. This finds the asked noun and tells whether a unit names something of that sort.
import { foldAccents, words } from '../text/analyzer.js';
import { isQuestionFormWord } from './question-words.js';
import { Relevance } from './relevance.js';

/** Words that may follow "qué" without being the asked noun (verbs, articles, pronouns). */
const NOT_A_NOUN = new Set(
  `es son era fue significa significan quiere hay se le les lo la las el los un una unos unas
esta estan pasa ocurre sucede is are was does do did the a an`.split(/\s+/),
);

export interface AskedName {
  /** Terms of the asked noun ("programa" → program, programa…). */
  noun: ReadonlySet<string>;
  /** Terms of the whole question: a name already in the question is not the answer. */
  question: ReadonlySet<string>;
}

/** The asked noun of a "which X" question, or null when the question is not of that shape. */
export function askedName(question: string): AskedName | null {
  // "¿Con qué herramienta…?", "¿En qué programa…?": a preposition may lead.
  const m = /^\W*(?:(?:con|en|de|por|para|a|mediante|with|in)\s+)?(?:que|cual|cuales|which|what)\s+(\p{L}+)/u.exec(
    foldAccents(question.toLowerCase()).replace(/[¿¡]/g, ' '),
  );
  const noun = m?.[1];
  if (!noun || NOT_A_NOUN.has(noun) || isQuestionFormWord(noun)) return null;
  return { noun: Relevance.termsOf(noun), question: Relevance.termsOf(question) };
}

/** A name: a capitalised word past a sentence's first word, or code. */
const NAME = /(?<=[^.!?¿¡:]\s)\p{Lu}[\p{L}\d-]+|`[^`]+`/gu;
/** A sentence that opens on what it defines: "Borg es un programa…". */
const DEFINED_FIRST = /^\W*(\p{Lu}[\p{L}\d-]+)\s+(es|son|is|are)\s/u;

/** True when the unit holds the asked noun beside a name the question does not give. */
export function namesAsked(text: string, asked: AskedName): boolean {
  const terms = Relevance.termsOf(text);
  if (![...asked.noun].some((t) => terms.has(t))) return false;
  const names = [...(text.match(NAME) ?? []), DEFINED_FIRST.exec(text)?.[1] ?? ''];
  return names.some((n) => {
    const ws = words(n);
    return ws.length > 0 && ws.every((w) => !asked.question.has(foldAccents(w)));
  });
}

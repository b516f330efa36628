// Multi-turn questions. A follow-up ("¿y a Canarias?", "¿y cuánto tarda en llegar allí?", "¿Cada cuánto la
// renuevan?") leans on the previous question for its topic; a question that opens a new subject ("Otra cosa: ¿cuál
// es vuestro teléfono?", "¿Cuál es el horario?") does not, and searching it together with the previous one brings
// back the previous answer. What tells them apart is how Spanish marks dependence on what was said before: a
// question that opens with a conjunction or a bare preposition ("¿y…?", "¿a cuántos meses…?"), demonstratives and
// place adverbs pointing back (ese, eso, allí, ahí), object pronouns without a noun (lo, "me la puedo quedar"), or no
// topic word at all. A phrase announcing a change of subject overrides them.
import { foldAccents, queryTermGroups, words } from '../text/analyzer.js';
import { isQuestionFormWord } from './question-words.js';
import type { AnswerRequest } from './types.js';

/** Phrases that announce a new subject: what follows stands on its own. */
const NEW_SUBJECT =
  /^\W*(otra cosa|otra pregunta|otra duda|una pregunta|una duda|una cosa mas|cambiando de tema|por otro lado|aparte de eso|por cierto|another question|on another note|by the way|unrelated)\b/;
/** Acknowledgements a turn may open with ("Vale.", "Perfecto,"): they say nothing about dependence; skipped. */
const ACKNOWLEDGEMENT =
  /^\W*(vale|ok|okay|perfecto|genial|bien|muy bien|bueno|gracias|muchas gracias|entendido|de acuerdo|claro|estupendo|thanks|great|fine)\b[\s.,;:!¡]*/;
/** A question opening with a conjunction continues the previous one. */
const CONTINUES = /^\W*(y|e|o|u|pero|entonces|ademas|tambien|and|but|also|so|what about|how about)\b/;
/**
 * A bare preposition first, not followed by a question word ("¿en Bilbao?", "¿para empresas?"), is an elliptical
 * question; "¿A qué hora abrís?" is not.
 */
const ELLIPTICAL =
  /^\W*(a|al|en|para|con|de|del|desde|hasta|por|sin|in|for|with|to|from)\s+(?!(que|cual|cuales|cuanto|cuanta|cuantos|cuantas|donde|quien|quienes|como|cuando|what|which|how|where|when|who)\b)/;
/** Words that point back to something said before. */
const POINTS_BACK = new Set(
  (
    'ese esa eso esos esas este esta esto estos estas aquel aquella aquello aquellos aquellas alli ahi alla ' +
    'mismo misma mismos mismas tambien lo le les that those it they them there same too'
  ).split(' '),
);
/** Object pronouns; "la", "las" and "los" are also articles, so they point back only right before a verb form. */
const CLITIC = new Set(['la', 'las', 'los', 'lo', 'le', 'les']);
const REFLEXIVE = new Set(['me', 'te', 'se', 'nos', 'os']);
/** Third-person plural and first-person verb endings (renuevan, quito, puedo): a word after "la" that is no noun. */
const VERB_FORM = /^\p{L}{3,}(an|en|amos|emos|imos|ais|eis)$/u;
const NOT_VERB = /(men|gen|den|ven)$/;

/**
 * Verbs that ask for a measure of something already named ("¿Cuánto cuesta?", "¿Cuánto tarda?", "¿Qué pasa?"):
 * alone they name no topic.
 */
const MEASURE_VERBS = new Set(
  'cuesta cuestan vale valen sale salen tarda tardan dura duran cobra cobran cobrais pasa pasan ocurre funciona'.split(
    ' ',
  ),
);

/** The question without an opening acknowledgement ("Vale. ¿Vendéis…?" → "¿Vendéis…?"). */
const withoutAcknowledgement = (folded: string): string => folded.replace(ACKNOWLEDGEMENT, '');

/**
 * Whether a question depends on the turn before it: it continues it (a conjunction or preposition first), points
 * back to it (a demonstrative, a place adverb, an object pronoun) or names no topic at all; false when it announces
 * a new subject.
 */
export function dependsOnPrevious(question: string): boolean {
  // Emoji, punctuation or symbols alone ask nothing, of this turn or the one before.
  if (!hasWords(question)) return false;
  const folded = withoutAcknowledgement(foldAccents(question.toLowerCase()).replace(/[¿¡]/g, ' ').trim());
  if (NEW_SUBJECT.test(folded)) return false;
  if (CONTINUES.test(folded) || ELLIPTICAL.test(folded)) return true;
  const ws = words(folded);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (POINTS_BACK.has(w)) return true;
    const next = ws[i + 1];
    if (
      CLITIC.has(w) &&
      next !== undefined &&
      (REFLEXIVE.has(ws[i - 1] ?? '') || (VERB_FORM.test(next) && !NOT_VERB.test(next)))
    )
      return true;
  }
  const topic = ws.filter((w) => !isQuestionFormWord(w) && !MEASURE_VERBS.has(w));
  return queryTermGroups(topic.join(' ')).length === 0;
}

/** Whether a turn has any word at all (letters), as opposed to emoji, symbols or punctuation only. */
export const hasWords = (question: string): boolean => /\p{L}/u.test(question);

/** The previous question the user asked in this conversation, if any. */
export const previousQuestion = (request: AnswerRequest): string | undefined =>
  [...(request.history ?? [])].reverse().find((t) => t.role === 'user')?.content;

/**
 * The question as retrieval should read it: a follow-up (or any question `asFollowUp`) together with the previous
 * question, which gives it its topic; any other question alone.
 */
export function retrievalQuery(request: AnswerRequest, asFollowUp = false): string {
  const previous = previousQuestion(request);
  if (!previous || !(asFollowUp || dependsOnPrevious(request.question))) return request.question;
  return `${request.question}\n${previous}`;
}

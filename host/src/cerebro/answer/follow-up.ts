// Multi-turn questions. A follow-up ("¿y a Canarias?", "¿y cuánto tarda en llegar allí?", "¿Cada cuánto la
// renuevan?") leans on the previous question for its topic; a question that opens a new subject ("Otra cosa: ¿cuál
// es vuestro teléfono?", "¿Cuál es el horario?") does not, and searching it together with the previous one brings
// back the previous answer. What tells them apart is how Spanish marks dependence on what was said before: a
// question that opens with a conjunction or a bare preposition ("¿y…?", "¿a cuántos meses…?"), demonstratives and
// place adverbs pointing back (ese, eso, allí, ahí), object pronouns without a noun (lo, "me la puedo quedar"), or no
// topic word at all. A phrase announcing a change of subject overrides them.
import { foldAccents, queryTermGroups, words } from '../text/analyzer.js';
import { STOPWORDS_ES } from '../text/stopwords.js';
import { isQuestionFormWord } from './question-words.js';
import type { AnswerRequest } from './types.js';

/** Phrases that announce a new subject: what follows stands on its own. */
const NEW_SUBJECT_PHRASES =
  'otra cosa|otra pregunta|otra duda|una pregunta|una duda|una cosa mas|cambiando de tema|por otro lado|aparte de eso|por cierto|another question|on another note|by the way|unrelated';
const NEW_SUBJECT = new RegExp(`^\\W*(${NEW_SUBJECT_PHRASES})\\b`);
/** Acknowledgements a turn may open with ("Vale.", "Perfecto,"): they say nothing about dependence; skipped. */
const ACKNOWLEDGEMENT_WORDS =
  'vale|ok|okay|perfecto|genial|bien|muy bien|bueno|gracias|muchas gracias|entendido|de acuerdo|claro|estupendo|thanks|great|fine';
const ACKNOWLEDGEMENT = new RegExp(`^\\W*(${ACKNOWLEDGEMENT_WORDS})\\b[\\s.,;:!¡]*`);
/**
 * An opening that asks nothing, as it is cut off a turn: before the question proper and set apart from it by
 * punctuation or the opening "¿" ("Otra cosa: ¿…?", "Vale, ¿…?"); "¿Vale la pena…?" and "¿Otra cosa que…?" ask.
 */
const OPENING = new RegExp(
  `^[\\s.,;:!]*(${ACKNOWLEDGEMENT_WORDS}|${NEW_SUBJECT_PHRASES})\\s*([.,;:!-]+[\\s]*|(?=[¿¡]))`,
);
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
/**
 * Object pronouns; "la", "las" and "los" are also articles, so they point back only before a word that is no noun:
 * a verb form, or after a plural article a word without the plural's -s ("las pido", "los cambian").
 */
const CLITIC = new Set(['la', 'las', 'los', 'lo', 'le', 'les']);
const REFLEXIVE = new Set(['me', 'te', 'se', 'nos', 'os']);
/** Third-person plural and first-person verb endings (renuevan, quito, puedo): a word after "la" that is no noun. */
const VERB_FORM = /^\p{L}{3,}(an|en|amos|emos|imos|ais|eis)$/u;
const NOT_VERB = /(men|gen|den|ven)$/;
/** First-person singular present (pido, quito, puedo); the few feminine nouns in -o are no verbs. */
const FIRST_PERSON = /^\p{L}{2,}o$/u;
/** Verbs among the function words that an object pronoun may stand before ("¿los puedo devolver?"). */
const MODAL = new Set(['puedo', 'puede', 'pueden', 'debo', 'debe', 'tiene', 'tienen', 'hace', 'hacer']);
const FEMININE_IN_O = new Set(['mano', 'foto', 'moto', 'radio', 'libido', 'dinamo', 'seo']);

/** Whether `next` is a verb form an object pronoun `clitic` stands before, rather than a noun after an article. */
function verbAfterClitic(clitic: string, next: string): boolean {
  if (VERB_FORM.test(next) && !NOT_VERB.test(next)) return true;
  if (clitic === 'las' || clitic === 'los')
    return !next.endsWith('s') && next.length > 2 && (!STOPWORDS_ES.has(next) || MODAL.has(next));
  if (clitic === 'la') return FIRST_PERSON.test(next) && !FEMININE_IN_O.has(next);
  return false;
}

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

/** Whether a turn opens by announcing a new subject ("Otra cosa: ¿…?"), after any acknowledgement. */
export const announcesNewSubject = (question: string): boolean =>
  NEW_SUBJECT.test(withoutAcknowledgement(foldAccents(question.normalize('NFC').toLowerCase())));

/**
 * The question without the words that open a turn but ask nothing: acknowledgements ("Vale.", "Perfecto,") and
 * announcements of a new subject ("Otra cosa:", "Cambiando de tema,"). Left in, "cosa" or "tema" would count as
 * topic words that no passage holds, and an answerable question would be declined for them. The question itself
 * when nothing else would be left.
 */
export function withoutOpening(question: string): string {
  const text = question.normalize('NFC');
  const folded = foldAccents(text.toLowerCase());
  // Folding an NFC text keeps one character per character, so a prefix of the folded text is one of the text.
  if (folded.length !== text.length) return question;
  let rest = folded;
  for (let before = ''; before !== rest; ) {
    before = rest;
    rest = rest.replace(OPENING, '');
  }
  const kept = text.slice(folded.length - rest.length);
  return hasWords(kept) ? kept : question;
}

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
    if (CLITIC.has(w) && next !== undefined && (REFLEXIVE.has(ws[i - 1] ?? '') || verbAfterClitic(w, next)))
      return true;
  }
  const topic = ws.filter((w) => !isQuestionFormWord(w) && !MEASURE_VERBS.has(w));
  return queryTermGroups(topic.join(' ')).length === 0;
}

/** Longest fragment read as an ellipsis of the previous question ("¿y los servidores DNS?", "¿y a Canarias?"). */
const ELLIPSIS_MAX_WORDS = 4;

/**
 * Whether a follow-up is a fragment that only swaps the topic of the previous question ("¿y los sábados?", "¿y a
 * Canarias?", "¿para empresas?"): it continues it, is short and holds no word of how people ask (no question word,
 * no "puedo", "hay", "tiene"). Such a fragment asks what the previous question asked (a time, a price, a path),
 * although it has no question word; "¿y la vieja me la puedo quedar?" asks something of its own.
 */
export function isEllipsis(question: string): boolean {
  const folded = withoutAcknowledgement(foldAccents(question.toLowerCase()).replace(/[¿¡]/g, ' ').trim());
  if (!(CONTINUES.test(folded) || ELLIPTICAL.test(folded))) return false;
  const ws = words(folded);
  // The conjunction or preposition it opens with ("para", "por" are also words of how people ask) is not looked at.
  return ws.length <= ELLIPSIS_MAX_WORDS && !ws.slice(1).some((w) => isQuestionFormWord(w) || REFLEXIVE.has(w));
}

/** Whether a turn has any word at all (letters), as opposed to emoji, symbols or punctuation only. */
export const hasWords = (question: string): boolean => /\p{L}/u.test(question);

/** The previous question the user asked in this conversation, if any. */
export const previousQuestion = (request: AnswerRequest): string | undefined =>
  [...(request.history ?? [])].reverse().find((t) => t.role === 'user')?.content;

/** How many earlier questions a follow-up may lean on through a chain of follow-ups. */
const MAX_ANTECEDENTS = 3;

/**
 * The earlier questions a follow-up leans on, nearest first: the previous question, and while that one was itself a
 * follow-up, the one it leaned on ("¿cuántas baterías trae ese?" after "¿y el inalámbrico?" after "¿Cuánto vale el
 * taladro percutor?": the topic is in the first).
 */
export function antecedents(request: AnswerRequest): string[] {
  const asked = (request.history ?? []).filter((t) => t.role === 'user').map((t) => t.content);
  const chain: string[] = [];
  for (let i = asked.length - 1; i >= 0 && chain.length < MAX_ANTECEDENTS; i--) {
    chain.push(withoutOpening(asked[i]!));
    if (!dependsOnPrevious(asked[i]!)) break;
  }
  return chain;
}

/**
 * The question as retrieval should read it: a follow-up (or any question `asFollowUp`) together with the questions
 * it leans on (`antecedents`), which give it its topic; any other question alone.
 */
export function retrievalQuery(request: AnswerRequest, asFollowUp = false): string {
  const chain = antecedents(request);
  if (chain.length === 0 || !(asFollowUp || dependsOnPrevious(request.question))) return request.question;
  return [request.question, ...chain].join('\n');
}

// Words that shape a question but say nothing about its topic: question words, and light verbs and fillers of how
// people ask ("¿cómo puedo…?", "quiero saber…", "how do I…"); possessives are stopwords (text/stopwords.ts). They
// are left out of retrieval and of the relevance score, so an answerable question is not declined for lacking them
// and an unrelated passage that happens to hold "puedo" or "hago" does not pass. Stored folded (lower case, no
// accents), as they are compared after folding.
import { foldAccents, isAcronym, typedWords } from '../text/analyzer.js';
import { identifierOf } from '../text/identifiers.js';
import { verbForms, type VerbSpec } from '../text/spanish-verbs.js';

const SPANISH = `como que cual cuales cuando cuanto cuanta cuantos cuantas donde adonde quien quienes por porque para
puedo puede pueden podemos podria podrian podriamos hago hace hacen hacemos hacer haria quiero quiere queremos querria
quisiera necesito necesita necesitamos debo debe deberia tengo tiene tenemos tener veo ve ver vemos ven sabe se saber sabes
abro abre abrir consigo conseguir logro lograr forma manera modo alguna algun existe hay favor dime digame decir explica explicame
alguien ayuda ayudame usted ustedes yo mi me nos sirve sirven pongo pone ponemos poner`;

const ENGLISH = `how what which where when who whom why can could would should do does did i me my we our you want
need way please tell explain there is are get`;

/**
 * The light verbs of how people ask, in every person they ask in (¿podéis…?, ¿tienen…?, ¿me podría…?, ¿sabéis…?):
 * generated (text/spanish-verbs.ts), with their irregular stems.
 */
const LIGHT_VERBS: readonly VerbSpec[] = [
  { infinitive: 'poder', strong: 'pued', future: 'podr', preterite: 'pud' },
  { infinitive: 'hacer', yo: 'hago', future: 'har', preterite: 'hic' },
  { infinitive: 'querer', strong: 'quier', future: 'querr', preterite: 'quis' },
  { infinitive: 'tener', strong: 'tien', yo: 'tengo', future: 'tendr', preterite: 'tuv' },
  { infinitive: 'saber', yo: 'se', subjunctive: 'sep', future: 'sabr', preterite: 'sup' },
  { infinitive: 'decir', strong: 'dic', yo: 'digo', future: 'dir', preterite: 'dij' },
  { infinitive: 'poner', yo: 'pongo', future: 'pondr', preterite: 'pus' },
  { infinitive: 'conseguir', strong: 'consigu', yo: 'consigo' },
  { infinitive: 'servir', strong: 'sirv', yo: 'sirvo' },
  { infinitive: 'necesitar' },
  { infinitive: 'deber' },
  { infinitive: 'lograr' },
  { infinitive: 'abrir' },
  { infinitive: 'existir' },
  // What one is entitled to ("¿cuántos días me tocan / me corresponden?"): the topic is what is due, not the verb.
  { infinitive: 'tocar', subjunctive: 'toqu' },
  { infinitive: 'corresponder' },
];
/**
 * "ir a" + infinitive is a future said another way ("¿me vais a cobrar…?"): its forms carry no topic. "ver" only in
 * the present ("¿cómo veo…?", "¿veis…?"): its subjunctive often is the topic ("para que se vea la hora").
 */
const IR = 'voy vas va vamos vais van vaya vayas vayamos vayais vayan ir ves veis';
/** Adverbs of place that point at a place the question names elsewhere ("trabajar desde allá"). */
const HERE_THERE = 'aca alla ahi alli';
/**
 * "vez" is said in locutions of time, frequency and substitution ("cada vez", "a la vez", "en vez de", "una vez
 * instalado", "la próxima vez", "a veces", "tal vez"), never as a question's topic; as a content word it credited
 * every passage saying "una vez" or "a la vez" (no question of the shared or own sets uses it otherwise).
 */
const OCCURRENCE = 'vez veces';

export const QUESTION_FORM_WORDS: ReadonlySet<string> = new Set([
  ...`${SPANISH} ${IR} ${HERE_THERE} ${OCCURRENCE} ${ENGLISH}`.split(/\s+/).filter(Boolean),
  ...LIGHT_VERBS.flatMap(verbForms),
]);

/** True for a word (any case, accents or not) that shapes a question without naming its topic. */
export const isQuestionFormWord = (word: string): boolean => QUESTION_FORM_WORDS.has(foldAccents(word.toLowerCase()));

/**
 * The question with its question-form words removed, for retrieval and relevance; the question itself when nothing
 * else is left (so "¿Qué hay?" still searches for something). A technical identifier is kept whole
 * (text/identifiers.ts): its parts are no question-form words ("get" of `apt-get`), and the search needs its
 * punctuation to tell it from words (`sources.list`: text/identifiers.ts `literalWords`).
 */
export function contentQuestion(question: string): string {
  const kept = question.split(/\s+/).flatMap((chunk) => {
    const identifier = identifierOf(chunk);
    // Words go lower case but an acronym keeps its capitals, which tell its final S from a plural's (analyzer.ts).
    return identifier
      ? [identifier]
      : typedWords(chunk)
          .filter((w) => !isQuestionFormWord(w))
          .map((w) => (isAcronym(w) ? w : w.toLowerCase()));
  });
  return kept.length ? kept.join(' ') : question;
}

import { createRequire } from 'node:module';

// Function words dropped from both indexed text and questions. Kept deliberately short: only words that carry no
// topic (articles, prepositions, pronouns, auxiliaries, question words), so content words are never lost.
// Stored folded (no accents, lower case) because they are compared after folding. Every person people ask in has its
// pronouns, possessives and forms of "ser"/"estar" here (usted and ustedes, vosotros: "¿cuál es vuestro horario?").
const SPANISH = `a al algo alguien algun alguna algunas alguno algunos ante antes aqui asi aun cada como con contra cual
cuales cualquier cuando cuanto de del desde donde dos el ella ellas ello ellos en entre era eran es esa esas ese eso
esos esta estaba estan estar estas este esto estos fue fueron ha haber habia han hasta hay la las le les lo los mas me
mi mis muy nada ni no nos nosotros o os otra otras otro otros para pero poco por porque pues que quien quienes se sea
segun ser si sido sin sobre son su sus tal tambien te tiene tienen toda todas todo todos tu tus un una unas uno unos
usted vosotros y ya yo cual cuales puedo puede pueden debo debe hacer hace como dice
ustedes vosotras vuestro vuestra vuestros vuestras nuestro nuestra nuestros nuestras soy eres somos sois estoy estamos
estais`;

const ENGLISH = `a about an and are as at be been being but by can could did do does doing for from had has have how i
if in into is it its me my no not of on or our so such than that the their them then there these they this those to
was we were what when where which who whom why will with would you your`;

const toSet = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

export const STOPWORDS_ES = toSet(SPANISH);
export const STOPWORDS_EN = toSet(ENGLISH);

// Other languages (French, Portuguese, German… found by the language identifier): the stopwords-iso lists, longer
// than the two above but only ever applied to text and questions in those languages. Loaded on first use.
const require = createRequire(import.meta.url);
let iso: Readonly<Record<string, readonly string[]>> | null = null;
const otherLists = new Map<string, ReadonlySet<string>>();

/** Folded stopwords of a language other than Spanish and English (empty for a language stopwords-iso lacks). */
export function otherStopwords(lang: string): ReadonlySet<string> {
  let set = otherLists.get(lang);
  if (!set) {
    iso ??= require('stopwords-iso') as Record<string, string[]>;
    set = new Set((Object.hasOwn(iso, lang) ? iso[lang]! : []).map(fold));
    otherLists.set(lang, set);
  }
  return set;
}

const fold = (w: string): string =>
  w
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
let foreign: ReadonlySet<string> | null = null;

/**
 * Function words of French, Portuguese, Italian, German and Dutch that are not Spanish or English ones (stopwords-iso,
 * folded): a Spanish or English text holds almost none, so they tell when the language identifier is worth asking.
 */
export function foreignFunctionWords(): ReadonlySet<string> {
  if (!foreign) {
    iso ??= require('stopwords-iso') as Record<string, string[]>;
    const own = new Set([...iso.es!, ...iso.en!].map(fold));
    foreign = new Set(['fr', 'pt', 'it', 'de', 'nl'].flatMap((l) => iso![l]!.map(fold)).filter((w) => !own.has(w)));
  }
  return foreign;
}

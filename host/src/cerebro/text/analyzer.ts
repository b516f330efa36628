// Turns text into index terms: lower case, Snowball stem of the text's language, then accent folding.
// Stemming runs before folding because the Spanish stemmer's suffix rules depend on accented vowels
// ("configuración" and "configurar" both reach "configur" only when the accent is still there).
import { createRequire } from 'node:module';
import type snowballStemmers from 'snowball-stemmers';
import { familyOf } from './derivation.js';
import { containingPlaces } from './places.js';
import { scanWords } from './word-scanner.js';
import type { IdentifyLanguage } from './language-identifier.js';
import { foreignFunctionWords, otherStopwords, STOPWORDS_EN, STOPWORDS_ES } from './stopwords.js';

/** An ISO 639-1 code: 'es' and 'en' told apart by function words, any other by the language identifier. */
export type Language = string;

interface Stemmer {
  stem(word: string): string;
}

/** Snowball algorithms by ISO 639-1 code; a language not listed is indexed unstemmed (folded words). */
const SNOWBALL: Readonly<Record<string, string>> = {
  es: 'spanish',
  en: 'english',
  fr: 'french',
  pt: 'portuguese',
  it: 'italian',
  de: 'german',
  nl: 'dutch',
  ca: 'catalan',
  da: 'danish',
  sv: 'swedish',
  no: 'norwegian',
  fi: 'finnish',
  hu: 'hungarian',
  ro: 'romanian',
  ru: 'russian',
  tr: 'turkish',
  cs: 'czech',
  eu: 'basque',
  ga: 'irish',
  hy: 'armenian',
  ar: 'arabic',
  ta: 'tamil',
  sl: 'slovene',
};

const stemmers = new Map<Language, Stemmer | null>();

const require = createRequire(import.meta.url);
/**
 * Required at the first stem, not imported: evaluating its 28 stemmers took ~3 ms of every start of the server, which
 * stems nothing until a document or a question comes (the single executable ships it as a package for that).
 */
let snowball: typeof snowballStemmers | undefined;

function stemmerOf(lang: Language): Stemmer | null {
  let stemmer = stemmers.get(lang);
  if (stemmer === undefined) {
    const algorithm = SNOWBALL[lang];
    snowball ??= require('snowball-stemmers') as typeof snowballStemmers;
    stemmer = algorithm ? (snowball.newStemmer(algorithm) as Stemmer) : null;
    stemmers.set(lang, stemmer);
  }
  return stemmer;
}

const MAX_WORD = 40;

const isSpanishOrEnglish = (lang: string): boolean => lang === 'es' || lang === 'en';

/** Removes diacritics (á→a, ñ→n, ü→u) after canonical decomposition. */
export function foldAccents(word: string): string {
  if (/^[\x00-\x7f]*$/.test(word)) return word; // fast path: nothing to fold
  return word.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Lower-cased words of a text, in order, apostrophes dropped (l'home → lhome is avoided: split instead). */
export function words(text: string): string[] {
  return scanWords(text.toLowerCase(), MAX_WORD);
}

/** The words of a text as `words` splits them, in the case they were typed. */
export function typedWords(text: string): string[] {
  return scanWords(text, MAX_WORD);
}

/** A word typed in capitals only, two letters or more ("HTTPS", "DNS", "SSH"; not "RFCs" nor "PCs"). */
const ACRONYM = /^\p{Lu}{2,}$/u;

/** Whether a word as typed is an acronym: written in capitals only. */
export const isAcronym = (typed: string): boolean => ACRONYM.test(typed);

function isStopword(folded: string): boolean {
  return STOPWORDS_ES.has(folded) || STOPWORDS_EN.has(folded);
}

/**
 * Puts back the accent of "-ción"/"-sión" on words typed without it ("configuracion"): the Spanish stemmer only
 * strips the accented suffix, so without this "configuracion" and "configuración" would never meet. The ending is
 * unambiguous in Spanish (every singular -cion/-sion noun carries the accent).
 */
function restoreAccent(word: string): string {
  return /[cs]ion$/.test(word) && /^[\x00-\x7f]*$/.test(word) ? `${word.slice(0, -2)}ón` : word;
}

// Snowball in JS costs several microseconds per word; vocabulary repeats heavily, so terms are memoised.
const MEMO_LIMIT = 200_000;
const memo = new Map<Language, Map<string, string>>();

function memoOf(lang: Language): Map<string, string> {
  let cache = memo.get(lang);
  if (!cache) memo.set(lang, (cache = new Map()));
  return cache;
}

/** The index term of one lower-case word in one language (stem, then fold). Numbers are kept as they are. */
export function termOf(word: string, lang: Language, cache = memoOf(lang)): string {
  let term = cache.get(word);
  if (term === undefined) {
    const stemmer = stemmerOf(lang);
    term =
      /^\p{N}+$/u.test(word) || !stemmer
        ? foldAccents(word)
        : foldAccents(stemmer.stem(lang === 'es' ? restoreAccent(word) : word));
    if (cache.size >= MEMO_LIMIT) cache.clear();
    cache.set(word, term);
  }
  return term;
}

const searchableMemo = new Map<string, readonly string[]>();

/**
 * Every term one lower-case word could be indexed under in Spanish or English, and the word folded: what a text is
 * compared with a question by (`Relevance.termsOf`). Memoised as one entry per word: answering reads the words of
 * every retrieved passage several times, and three lookups per word cost more than the comparison itself.
 */
export function searchableTerms(word: string): readonly string[] {
  let terms = searchableMemo.get(word);
  if (terms === undefined) {
    const spanish = termOf(word, 'es');
    const family = familyOf(spanish);
    const singular = stressedSingular(word);
    terms = [
      ...new Set([
        spanish,
        termOf(word, 'en'),
        foldAccents(word),
        ...(family ? [family] : []),
        ...(singular ? [termOf(singular, 'es')] : []),
      ]),
    ];
    if (searchableMemo.size >= MEMO_LIMIT) searchableMemo.clear();
    searchableMemo.set(word, terms);
  }
  return terms;
}

// A word's fate in the index of one language (its term, or null for a stopword) memoised as one lookup: folding, the
// stopword check and the stem each cost more than the lookup, and a text repeats its vocabulary heavily.
const indexMemo = new Map<Language, Map<string, string | null>>();

/** Index terms of a text for its language, stopwords removed, in order (duplicates kept: BM25 needs frequencies). */
export function indexTerms(text: string, lang: Language): string[] {
  let fates = indexMemo.get(lang);
  if (!fates) indexMemo.set(lang, (fates = new Map()));
  const out: string[] = [];
  for (const w of words(text)) {
    let term = fates.get(w);
    if (term === undefined) {
      const folded = foldAccents(w);
      const own = isSpanishOrEnglish(lang) ? null : otherStopwords(lang);
      term = isStopword(folded) || own?.has(folded) ? null : termOf(w, lang);
      if (fates.size >= MEMO_LIMIT) fates.clear();
      fates.set(w, term);
    }
    if (term !== null) out.push(term);
  }
  return out;
}

export const LANGUAGES: readonly Language[] = ['es', 'en'];

/**
 * Query terms: each distinct content word of the question becomes a group of alternatives, its term in each of
 * `languages` (the languages the searched documents are in: a question may be asked in either, and a language the
 * documents do not use only adds stems that match by accident).
 */
export function queryTermGroups(question: string, languages: readonly Language[] = LANGUAGES): string[][] {
  return queryEntries(question, languages).map(({ word, again, acronym }) => {
    const forms = again ? [`re${word}`] : [word];
    const terms = forms.flatMap((f) => languages.map((lang) => termOf(f, lang)));
    // A Spanish verb said where its stem is stressed also searches the unstressed stem ("devuelven" → "devolver").
    if (languages.includes('es')) {
      for (const f of forms) {
        const unstressed = unstressedStem(f);
        if (unstressed) terms.push(termOf(unstressed, 'es'));
        const number = otherNumber(f, acronym);
        if (number) terms.push(termOf(number, 'es'));
        // A plural of a word stressed on its last vowel ("sofás", "menús") also searches its singular's stem, which
        // texts in the singular are indexed under (typed without the accent, "sofas", it meets them by that stem).
        const singular = stressedSingular(f);
        if (singular) terms.push(termOf(singular, 'es'));
        // Its word family ("aislante" also meets "aisladora", "devolver" meets "devolución"): text/derivation.ts.
        const family = familyOf(termOf(f, 'es'));
        if (family) terms.push(family);
        // A place also meets the region, islands or country that contain it ("Palma" → Baleares): text/places.ts.
        for (const place of containingPlaces(foldAccents(f.toLowerCase()))) terms.push(termOf(place, 'es'));
      }
    }
    return [...new Set(terms)];
  });
}

/**
 * The form of a word with its last diphthong "ie"/"ue" made "e"/"o": Spanish verbs diphthongise their stem where it
 * is stressed ("cierran"/"cerrar", "cuesta"/"coste", "devuelvo"/"devolver", "tienen"/"tener"), and snowball stems
 * both forms apart. Null when the word has no such diphthong.
 */
export function unstressedStem(word: string): string | null {
  const m = /^(.*?)(ie|ue)([^aeiouáéíóú]+[aeiouáéíóú].*)$/u.exec(word);
  if (!m || m[1]!.length === 0 || /[gq]$/.test(m[1]!)) return null;
  return `${m[1]}${m[2] === 'ie' ? 'e' : 'o'}${m[3]}`;
}

/**
 * The singular of a plural of a word stressed on its last vowel ("sofás" → "sofá", "menús" → "menú", "cafés" →
 * "café"): Snowball strips the final stressed vowel of the singular ("sof") but leaves the plural whole ("sofas"), so
 * the two never meet. Null for any other word.
 */
export function stressedSingular(word: string): string | null {
  return /^\p{L}{2,}[áéíóú]s$/u.test(word) ? word.slice(0, -1) : null;
}

/** A word ending in a consonant, or in a consonant and "s" (folded). */
const CONSONANT_END = /^\p{L}{2,}[b-df-hj-np-rt-z](s?)$/u;

/**
 * The other number of a word Spanish makes plural with a bare "-s" after a consonant: loanwords ("laptop"/"laptops",
 * "ticket"/"tickets", "chip"/"chips"), which snowball's Spanish stemmer leaves apart (it strips "-s" only after a
 * vowel). Null for any other word, and for a word the stemmer shortens. A form no text uses matches nothing.
 * `acronym`: the word was typed in capitals (`isAcronym`), so a final S is its own letter, not a plural ending
 * ("HTTPS" is no plural of HTTP, "DNS" none of "DN"); an acronym's plural is written with a small s ("RFCs", "PCs").
 */
export function otherNumber(word: string, acronym = false): string | null {
  const folded = foldAccents(word.toLowerCase());
  const m = CONSONANT_END.exec(folded);
  // A word the stemmer shortens is Spanish morphology it knows ("cambian" → "cambi"): its number is handled.
  if (!m || (acronym && m[1]) || termOf(word.toLowerCase(), 'es') !== folded) return null;
  return m[1] ? folded.slice(0, -1) : `${folded}s`;
}

/** The distinct content words of a question, one per group of `queryTermGroups(question, languages)`, in order. */
export function queryWords(question: string, languages: readonly Language[] = LANGUAGES): string[] {
  return queryEntries(question, languages).map((e) => e.word);
}

/**
 * The question's content words as typed, lower case and accents folded, one per group of `queryTermGroups`: BM25 gives
 * the very form asked a little more weight than its stem (index/space-bm25.ts).
 */
export function exactQueryWords(question: string, languages: readonly Language[] = LANGUAGES): string[] {
  return queryWords(question, languages).map(foldAccents);
}

/** Forms of "volver" that, followed by "a" and a verb, say the verb's action again ("vuelvo a configurar"). */
const AGAIN = new Set([
  'volver',
  'vuelvo',
  'vuelves',
  'vuelve',
  'vuelva',
  'vuelvan',
  'volvemos',
  'volvi',
  'volvio',
  'volviendo',
]);
const INFINITIVE = /^[a-zñ]{3,}(ar|er|ir)$/;

/**
 * The content words of a question, each marked when it is said as "volver a <verb>": Spanish says a repeated
 * action that way or with the prefix re- ("reconfigurar", "reinstalar", "reiniciar"), and documentation mostly
 * with the prefix, so the verb also searches its re- form and "volver a" itself is not searched.
 */
function queryEntries(
  question: string,
  languages: readonly Language[],
): { word: string; again: boolean; acronym: boolean }[] {
  const others = languages.filter((lang) => !isSpanishOrEnglish(lang)).map(otherStopwords);
  const seen = new Set<string>();
  const out: { word: string; again: boolean; acronym: boolean }[] = [];
  const all = words(question);
  // The same words as typed (lower-casing changes no word's bounds, but a text where it would is read without case).
  const typed = typedWords(question);
  const acronymAt = (i: number) => typed.length === all.length && isAcronym(typed[i]!);
  for (let i = 0; i < all.length; i++) {
    const w = all[i]!;
    const folded = foldAccents(w);
    const verb = all[i + 2] ? foldAccents(all[i + 2]!) : '';
    if (AGAIN.has(folded) && all[i + 1]?.toLowerCase() === 'a' && INFINITIVE.test(verb) && !seen.has(verb)) {
      seen.add(verb);
      out.push({ word: all[i + 2]!, again: true, acronym: false });
      i += 2;
      continue;
    }
    if (isStopword(folded) || others.some((s) => s.has(folded)) || seen.has(folded)) continue;
    seen.add(folded);
    out.push({ word: w, again: false, acronym: acronymAt(i) });
  }
  return out;
}

export interface LanguageSignals {
  /** Function words only Spanish uses, and only English. */
  es: number;
  en: number;
  words: number;
  /** Distinct function words of French, Portuguese, Italian, German or Dutch only (stopwords.ts). */
  foreign: number;
  /** Letters or elisions Spanish and English do not use (ã, ç, à, è, ö, ß…; l', d', qu'). */
  marked: boolean;
}

const FOREIGN_MARKS = /[ãõçàèêâôûœëïäößù]|\b(?:l|d|qu|j|n|s|c)['’]\p{L}/iu;

/** How many function words of each language a text uses (words that are function words in only one of them). */
export function languageSignals(text: string): LanguageSignals {
  const sample = text.slice(0, 20_000);
  const folded = words(sample).map(foldAccents);
  const signals = { es: 0, en: 0, words: folded.length, foreign: 0, marked: false };
  for (const f of folded) {
    if (STOPWORDS_ES.has(f) && !STOPWORDS_EN.has(f)) signals.es++;
    else if (STOPWORDS_EN.has(f) && !STOPWORDS_ES.has(f)) signals.en++;
  }
  // The signs of another language are only looked for where they matter (a low share), to keep indexing fast.
  if (lowShare(signals)) {
    const foreign = foreignFunctionWords();
    signals.foreign = new Set(folded.filter((f) => foreign.has(f))).size;
    signals.marked = FOREIGN_MARKS.test(sample);
  }
  return signals;
}

/**
 * Share of Spanish or English function words under which a text may be in another language. Measured on one
 * sentence translated five ways: Spanish 0.36–0.46, English 0.36, French 0.22, Portuguese 0.23, Italian 0.14,
 * German 0.07 (French and Portuguese share de, la, que, se, para… with Spanish, hence the margin).
 */
const OTHER_LANGUAGE_SHARE = 0.3;
/** Fewest words for that share to mean anything. */
const MIN_WORDS = 5;

/**
 * True when the function words cannot tell whether a text is Spanish or English and it shows signs of another
 * language (foreign letters or elisions, or distinct foreign function words at least half as many as Spanish and
 * English ones, and at least 3): then the identifier is asked. In the Spanish Debian reference (1 MB, tables and
 * commands), a third of the passages have a low share but none shows such signs, so indexing Spanish does not load
 * eld at all (counting repeats, one table repeating "font" did).
 */
export function mayBeOtherLanguage(signals: LanguageSignals): boolean {
  return lowShare(signals) && (signals.marked || signals.foreign >= Math.max(3, signals.es + signals.en) * 0.5);
}

function lowShare(signals: Pick<LanguageSignals, 'es' | 'en' | 'words'>): boolean {
  return signals.words >= MIN_WORDS && (signals.es + signals.en) / signals.words < OTHER_LANGUAGE_SHARE;
}

/** The identifier's language for a text the function words cannot place, when it is neither Spanish nor English. */
function otherLanguage(
  text: string,
  signals: LanguageSignals,
  identify: IdentifyLanguage | undefined,
): Language | null {
  if (!identify || !mayBeOtherLanguage(signals)) return null;
  const lang = identify(text);
  return lang && !isSpanishOrEnglish(lang) ? lang : null;
}

/**
 * Guesses whether a text is Spanish or English from how many of each language's function words it uses. Measured
 * against eld, franc-min and tinyld on short technical Spanish full of English command names (bench/respuestas
 * questions, debian-reference-es sentences) and English READMEs, this was right more often than any of them. With
 * `identify`, a text with few of those function words is asked to it, and kept in its language when that is
 * neither Spanish nor English (French, Portuguese, German…).
 */
export function detectLanguage(text: string, identify?: IdentifyLanguage): Language {
  const signals = languageSignals(text);
  return otherLanguage(text, signals, identify) ?? (signals.en > signals.es * 1.2 ? 'en' : 'es');
}

/** Fewest function words a passage needs before its own language is trusted over its document's. */
const PASSAGE_SIGNALS = 8;
/** Fewest words a passage needs before the identifier is asked about it (shorter ones keep the document's). */
const PASSAGE_WORDS = 20;

/**
 * Whether `passageLanguage` asks the identifier about a passage: in a Spanish or English document, one of enough
 * words with few of their function words; in a document of another language, one with many of them.
 */
export function passageNeedsIdentifier(signals: LanguageSignals, documentLang: Language): boolean {
  if (!isSpanishOrEnglish(documentLang))
    return signals.es + signals.en >= PASSAGE_SIGNALS && !mayBeOtherLanguage(signals);
  return signals.words >= PASSAGE_WORDS && mayBeOtherLanguage(signals);
}

/**
 * The language of one passage of a document in `documentLang`: its own when it says clearly (enough function words,
 * twice as many of the other language; with `identify`, see `passageNeedsIdentifier`), else its document's. Manuals translated in part mix languages by section.
 */
export function passageLanguage(
  text: string,
  documentLang: Language,
  identify?: IdentifyLanguage,
  signals = languageSignals(text),
): Language {
  const ask = identify && passageNeedsIdentifier(signals, documentLang);
  if (!isSpanishOrEnglish(documentLang)) {
    // A passage of a French (…) document that reads as Spanish or English by its function words, and that the
    // identifier confirms, is in that language.
    const lang = ask ? identify(text) : null;
    return lang && isSpanishOrEnglish(lang) ? lang : documentLang;
  }
  const lang = ask ? otherLanguage(text, signals, identify) : null;
  if (lang) return lang;
  const other: Language = documentLang === 'es' ? 'en' : 'es';
  const count = (lang: Language) => (lang === 'es' ? signals.es : signals.en);
  return count(other) >= PASSAGE_SIGNALS && count(other) > 2 * count(documentLang) ? other : documentLang;
}

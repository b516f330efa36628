// Turns text into index terms: lower case, Spanish or English Snowball stem, then accent folding.
// Stemming runs before folding because the Spanish stemmer's suffix rules depend on accented vowels
// ("configuración" and "configurar" both reach "configur" only when the accent is still there).
import snowball from 'snowball-stemmers';
import { STOPWORDS_EN, STOPWORDS_ES } from './stopwords.js';

export type Language = 'es' | 'en';

interface Stemmer { stem(word: string): string }

const stemmers: Record<Language, Stemmer> = {
  es: snowball.newStemmer('spanish') as Stemmer,
  en: snowball.newStemmer('english') as Stemmer,
};

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const MAX_WORD = 40;

/** Removes diacritics (á→a, ñ→n, ü→u) after canonical decomposition. */
export function foldAccents(word: string): string {
  if (/^[\x00-\x7f]*$/.test(word)) return word; // fast path: nothing to fold
  return word.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Lower-cased words of a text, in order, apostrophes dropped (l'home → lhome is avoided: split instead). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    for (const part of m[0].split(/['’]/)) if (part.length > 0 && part.length <= MAX_WORD) out.push(part);
  }
  return out;
}

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
const memo: Record<Language, Map<string, string>> = { es: new Map(), en: new Map() };

/** The index term of one lower-case word in one language (stem, then fold). Numbers are kept as they are. */
export function termOf(word: string, lang: Language): string {
  const cache = memo[lang];
  let term = cache.get(word);
  if (term === undefined) {
    term = /^\p{N}+$/u.test(word) ? word : foldAccents(stemmers[lang].stem(lang === 'es' ? restoreAccent(word) : word));
    if (cache.size >= MEMO_LIMIT) cache.clear();
    cache.set(word, term);
  }
  return term;
}

/** Index terms of a text for its language, stopwords removed, in order (duplicates kept: BM25 needs frequencies). */
export function indexTerms(text: string, lang: Language): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    const folded = foldAccents(w);
    if (isStopword(folded)) continue;
    out.push(termOf(w, lang));
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
  return queryWords(question).map((w) => [...new Set(languages.map((lang) => termOf(w, lang)))]);
}

/** The distinct content words of a question, one per group of `queryTermGroups`, in the same order. */
export function queryWords(question: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of words(question)) {
    const folded = foldAccents(w);
    if (isStopword(folded) || seen.has(folded)) continue;
    seen.add(folded);
    out.push(w);
  }
  return out;
}

/** How many function words of each language a text uses (words that are function words in only one of them). */
export function languageSignals(text: string): Record<Language, number> {
  const signals = { es: 0, en: 0 };
  for (const w of words(text.slice(0, 20_000))) {
    const f = foldAccents(w);
    if (STOPWORDS_ES.has(f) && !STOPWORDS_EN.has(f)) signals.es++;
    else if (STOPWORDS_EN.has(f) && !STOPWORDS_ES.has(f)) signals.en++;
  }
  return signals;
}

/**
 * Guesses whether a text is Spanish or English from how many of each language's function words it uses. Measured
 * against eld, franc-min and tinyld on short technical Spanish full of English command names (bench/respuestas
 * questions, debian-reference-es sentences) and English READMEs, this was right more often than any of them.
 */
export function detectLanguage(text: string): Language {
  const { es, en } = languageSignals(text);
  return en > es * 1.2 ? 'en' : 'es';
}

/** Fewest function words a passage needs before its own language is trusted over its document's. */
const PASSAGE_SIGNALS = 8;

/**
 * The language of one passage of a document in `documentLang`: its own when it says clearly (enough function words,
 * twice as many of the other language), else its document's. Manuals translated in part mix languages by section.
 */
export function passageLanguage(text: string, documentLang: Language): Language {
  const signals = languageSignals(text);
  const other: Language = documentLang === 'es' ? 'en' : 'es';
  return signals[other] >= PASSAGE_SIGNALS && signals[other] > 2 * signals[documentLang] ? other : documentLang;
}

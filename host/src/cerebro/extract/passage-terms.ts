// A passage's index terms, apart from prepare.ts so the main thread (the engine's barrel, tests' seeds) can compute
// them without loading the extractors prepare.ts brings.
import { indexTerms, type Language } from '../text/analyzer.js';

/**
 * Index terms of a passage: its text, and apart its heading path, so a question naming a section finds the
 * section's passages (the heading column weighs more in BM25, as titles do in any search engine).
 */
export function passageTerms(
  text: string,
  headings: readonly string[],
  lang: Language,
  headingLang: Language = lang,
): { terms: string; headingTerms: string } {
  return {
    terms: indexTerms(text, lang).join(' '),
    headingTerms: indexTerms(headings.join('\n'), headingLang).join(' '),
  };
}

// A passage's index terms, apart from prepare.ts so the main thread (the engine's barrel, tests' seeds) can compute
// them without loading the extractors prepare.ts brings.
import { indexTerms, type Language } from '../text/analyzer.js';
import { withoutLinkSchemes } from '../text/link-schemes.js';

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
    // A link's scheme is no word of the passage (text/link-schemes.ts): "https" of an address is not indexed.
    terms: indexTerms(withoutLinkSchemes(text), lang).join(' '),
    headingTerms: indexTerms(withoutLinkSchemes(headings.join('\n')), headingLang).join(' '),
  };
}

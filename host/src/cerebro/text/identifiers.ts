// Technical identifiers in a question: file names and paths (`sources.list`, `/etc/fstab`), dotted, underscored or
// hyphenated names (`apt-get`, `resolv.conf`, `X_FORWARDED`), options (`--purge`). The word scanner splits them into
// their parts like any text, and each part alone would be stemmed like a word of the language: "list" of
// `sources.list` met Spanish "lista" (in the Debian handbook 122 passages say "list", 291 a word stemmed "list"). A
// technical search matches an identifier's parts in their very form (index/space-bm25.ts).
import { foldAccents, type Language, queryWords, words } from './analyzer.js';

/** Punctuation around a chunk of text that is not part of what it names (quotes, brackets, a sentence's end). */
const LEADING = /^[¿¡("'«`“‘[{]+/u;
const TRAILING = /[?!,;:)"'»`”’\]}.]+$/u;
/** Letters and digits joined by the separators of names and paths, maybe after a path or option prefix. */
const SHAPE = /^(?:--?|~?\/|\.)?[\p{L}\p{N}]+(?:[._/\-:+@]+[\p{L}\p{N}]+)*\/?$/u;
/** A separator between two of its parts, or a prefix that makes a single word a path, an option or an extension. */
const JOINED = /[\p{L}\p{N}][._/\-:+@]+[\p{L}\p{N}]/u;
const PREFIXED = /^(?:--?|~?\/|\.)\p{L}/u;

/**
 * The chunk of text between spaces as an identifier (lower case, surrounding punctuation dropped), or null when it is
 * an ordinary word or a number ("1.5", "10:00": numbers are never stemmed anyway).
 */
export function identifierOf(chunk: string): string | null {
  const c = chunk.replace(LEADING, '').replace(TRAILING, '').toLowerCase();
  if (!SHAPE.test(c) || !/\p{L}/u.test(c)) return null;
  return JOINED.test(c) || PREFIXED.test(c) ? c : null;
}

/**
 * Per content word of the question (one per group of `queryTermGroups`, `queryWords`' order): true when the question
 * says that word only inside identifiers, so that a text counts for it only where it says the very form (folded),
 * never a relative of its stem. A word also said on its own ("list de sources.list") keeps its stem. Empty when the
 * question has no identifier (most do not: they are not analysed twice).
 */
export function literalWords(question: string, languages?: readonly Language[]): boolean[] {
  const inside = new Set<string>();
  const outside = new Set<string>();
  for (const chunk of question.split(/\s+/)) {
    const identifier = identifierOf(chunk);
    for (const w of words(identifier ?? chunk)) (identifier ? inside : outside).add(foldAccents(w));
  }
  if (inside.size === 0) return [];
  return queryWords(question, languages).map((w) => {
    const f = foldAccents(w);
    return inside.has(f) && !outside.has(f);
  });
}

// Checks a user-facing Spanish message the way a careful reader would: a count agrees with its noun ("1 carácter",
// "3 caracteres"), no English word slipped in, no price written with one decimal ("89,9 EUR"), and (where the
// catalogue's style asks for it) a capital at the start and a period at the end. Returns what is wrong, empty when
// nothing is.

/** Words after a number that are units or codes, not nouns: they do not take a plural. */
const UNITS = /^(?:[A-Z]{3}|MB|KB|GB|B|s|ms|h|min|x|%)$/;
/** Words that may follow a number without being its noun ("de 1 a 80", "entre 1 y 200"). */
const FUNCTION_WORDS = new Set(['a', 'y', 'o', 'e', 'de', 'en', 'al', 'del', 'por', 'para', 'que', 'como', 'u']);
/** Nouns that end in "s" in the singular. */
const SINGULAR_IN_S = new Set(['mes', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'análisis', 'crisis']);

/** English words a Spanish message has no business using; product and protocol terms are allowed by the caller. */
const ENGLISH = new Set(
  (
    'the and of to is are was not found errors invalid request requests key keys please your you with for ' +
    'must be field required missing unknown value values should cannot can too many large long short only read ' +
    'write access denied forbidden unauthorized failed failure server internal timeout busy retry later space ' +
    'account module disabled enabled limit exceeded quota try again item items character characters least most ' +
    'price shipping quote hello hi thanks bye available out sorry'
  ).split(' '),
);

export interface StyleOptions {
  /** A capital first letter (after ¿ or ¡) and a final period (or ? / !). */
  sentence?: boolean;
  /** Words allowed although they are English or look like it (product, protocol and brand terms). */
  allow?: readonly string[];
}

export function spanishProblems(text: string, options: StyleOptions = {}): string[] {
  const problems: string[] = [];
  const allow = new Set((options.allow ?? []).map((w) => w.toLowerCase()));
  // Code spans and header values are quoted protocol, not prose.
  const prose = text.replace(/`[^`]*`/g, ' ').replace(/<[^>]*>/g, ' ');
  for (const m of prose.matchAll(/(?<![\d.,])(\d+(?:[.,]\d+)*)\s+([\p{L}%]+)/gu)) {
    const [whole, figure, word] = m as unknown as [string, string, string];
    if (UNITS.test(word) || FUNCTION_WORDS.has(word.toLowerCase())) continue;
    const one = figure === '1';
    if (one && word.endsWith('s') && !SINGULAR_IN_S.has(word.toLowerCase())) {
      problems.push(`«${whole}»: un 1 con el nombre en plural`);
    }
    if (!one && /^\p{Ll}+$/u.test(word) && !word.endsWith('s')) {
      problems.push(`«${whole}»: una cantidad distinta de 1 con el nombre en singular`);
    }
  }
  for (const m of prose.matchAll(/\d+,\d(?!\d)/g)) problems.push(`«${m[0]}»: un importe con un solo decimal`);
  for (const m of prose.matchAll(/\d+\.\d{1,2}(?!\d)\s*[A-Z]{3}\b/g))
    problems.push(`«${m[0]}»: un importe con punto decimal`);
  for (const word of prose.match(/\p{L}+/gu) ?? []) {
    const lower = word.toLowerCase();
    if (ENGLISH.has(lower) && !allow.has(lower)) problems.push(`«${word}»: palabra en inglés`);
  }
  if (options.sentence) {
    if (!/^[¿¡]?[\p{Lu}\d]/u.test(text.trim())) problems.push('no empieza con mayúscula');
    if (!/[.?!]$/.test(text.trim())) problems.push('no termina en punto');
  }
  return problems;
}

/** How many times `name` appears in `text`, ignoring case. */
export function occurrences(text: string, name: string): number {
  return text.toLowerCase().split(name.toLowerCase()).length - 1;
}

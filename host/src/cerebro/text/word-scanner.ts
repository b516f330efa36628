// Splits lower-cased text into words with a character scan instead of a Unicode regex: indexing spends a fifth of its
// time here (a 5 MB text is ~800,000 words), and V8's `\p{…}` matching costs several times a table lookup. The scan
// gives exactly what `[\p{L}\p{N}]+(?:['’][\p{L}]+)?` followed by a split on the apostrophe gives (a test compares
// both on real documents), so index terms do not change.

const LETTER = 1;
const NUMBER = 2;
const OTHER = 3;

/** Class of each UTF-16 code unit outside ASCII, filled on first sight from the same Unicode properties as the regex. */
const bmpClasses = new Uint8Array(0x10000);
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;

function classOfCodePoint(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return IS_LETTER.test(ch) ? LETTER : IS_NUMBER.test(ch) ? NUMBER : OTHER;
}

/** Class of the code point at `i` (ASCII by comparison, the rest by the table; astral code points by the regexes). */
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) {
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return LETTER;
    return c >= 0x30 && c <= 0x39 ? NUMBER : OTHER;
  }
  if (c >= 0xd800 && c <= 0xdbff) return classOfCodePoint(text.codePointAt(i)!);
  let cls = bmpClasses[c]!;
  if (cls === 0) bmpClasses[c] = cls = classOfCodePoint(c);
  return cls;
}

/** UTF-16 length of the code point at `i`. */
const widthAt = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
};

const isApostrophe = (c: number): boolean => c === 0x27 || c === 0x2019;

/**
 * The words of an already lower-cased text, in order: runs of letters and digits, a run after an apostrophe taken as
 * a word of its own when it is made of letters ("l'ordinateur" gives "l", "ordinateur"); words longer than
 * `maxLength` UTF-16 units are left out.
 */
export function scanWords(text: string, maxLength: number): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (classAt(text, i) === OTHER) {
      i += widthAt(text, i);
      continue;
    }
    const start = i;
    while (i < n && classAt(text, i) !== OTHER) i += widthAt(text, i);
    const head = text.slice(start, i);
    // An apostrophe followed by letters continues the match; its part is letters only (a digit starts a new word).
    if (i + 1 < n && isApostrophe(text.charCodeAt(i)) && classAt(text, i + 1) === LETTER) {
      if (head.length <= maxLength) out.push(head);
      const tail = i + 1;
      i = tail;
      while (i < n && classAt(text, i) === LETTER) i += widthAt(text, i);
      if (i - tail <= maxLength) out.push(text.slice(tail, i));
      continue;
    }
    if (head.length <= maxLength) out.push(head);
  }
  return out;
}

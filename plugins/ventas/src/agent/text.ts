// Text helpers for Spanish chat messages: folding (accents, case, stretched letters),
// tokens, a light plural stripper and a bounded edit distance for typos.

/** Lower-case, accents removed, ñ kept, punctuation to spaces, letters stretched 3+ times collapsed. */
export function fold(text: string): string {
  return text
    .replace(/ñ/g, '\u0001')
    .replace(/Ñ/g, '\u0001')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/\u0001/g, 'ñ')
    .toLowerCase()
    .replace(/(\p{L})\1{2,}/gu, '$1')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function tokens(text: string): string[] {
  const folded = fold(text);
  return folded === '' ? [] : folded.split(' ');
}

/** Spanish plural to singular, good enough for matching product words ("pantalones" -> "pantalon"). */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ces')) return `${word.slice(0, -3)}z`;
  if (word.length > 4 && /[lnrdjy]es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Damerau (optimal string alignment) distance, stopping early once above `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** Typos tolerated by word length: none for short words, where one edit changes the meaning. */
export function typoBudget(word: string): number {
  if (word.length >= 8) return 2;
  if (word.length >= 5) return 1;
  return 0;
}

/** Same word, allowing plural and typos. Both arguments must already be folded. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const sa = singular(a);
  const sb = singular(b);
  if (sa === sb) return true;
  const budget = Math.min(typoBudget(sa), typoBudget(sb));
  return budget > 0 && editDistance(sa, sb, budget) <= budget;
}

// Characters that may trail a question without ending it: spaces, closing quotes, emojis.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the joiner and variation selector are stripped one by one on purpose.
const TRAILING_NOISE = /[\s"'»)\]\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F\u200D]+$/u;

/** Whether the text ends in a question (rules 5 and 6), ignoring trailing emojis and spaces. */
export function endsWithQuestion(text: string): boolean {
  return text.replace(TRAILING_NOISE, '').endsWith('?');
}

/** Splits into sentences, keeping the terminator with each; newlines also end a sentence. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    // A dot followed by a non-space ("45.000") is not a sentence end.
    const parts = line.match(/(?:[^.!?]|[.!?](?=[^\s.!?]))+(?:[.!?]+|$)/g) ?? [];
    for (const p of parts) if (p.trim() !== '') out.push(p.trim());
  }
  return out;
}

/** Each word capitalised: how a city typed in lower case is echoed back. */
export function titleCase(text: string): string {
  return text.replace(/(^|\s)(\p{L})/gu, (_m, sp: string, ch: string) => sp + ch.toUpperCase());
}

// The tokens SQLite's FTS5 makes of a column with the engine's tokenizer (`unicode61 remove_diacritics 0`, see
// cerebro/schema.ts): runs of letters, numbers and private-use characters, lower-cased, everything else a separator.
// The PostgreSQL index stores exactly these, so its postings and statistics are FTS5's (the parity test compares
// them with FTS5's own vocabulary). The engine's index terms are already lower-case runs of letters and numbers, so
// each usually is one token.

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/** FTS5's tokens of `text`, in order. */
export function fts5Tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) out.push(m[0].toLowerCase());
  return out;
}

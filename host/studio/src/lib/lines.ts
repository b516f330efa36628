/** Text areas edit lists one item per line; empty lines are dropped. */
export const toLines = (items: string[]): string => items.join('\n');
export const fromLines = (text: string): string[] =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);

/** Emojis typed in one field, separated by spaces or commas. */
export const fromWords = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** `clave = valor` per line (upsell combos) ↔ object. */
export const pairsToLines = (pairs: Record<string, string>): string =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
export function linesToPairs(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const line of fromLines(text)) {
    const at = line.indexOf('=');
    if (at > 0) pairs[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    else pairs[line] = '';
  }
  return pairs;
}

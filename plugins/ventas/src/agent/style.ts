// Brand style applied to the final text (rule 3): plain text, emoji rules and `max_lineas`.
// Applied after the tactics so the appended combo and closing question obey them too.

const EMOJI = /\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|\u200D\p{Extended_Pictographic}\uFE0F?)*/gu;

/** Removes markdown: bold/italics/code marks, headers, list bullets, quotes and link syntax. */
export function toPlainText(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*>\s?/, '')
        .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
        .replace(/!?\[([^\]]*)\]\(([^)\s]+)\)/g, '$1 ($2)')
        .replace(/(\*\*|__)(.+?)\1/g, '$2')
        .replace(/(^|[^\w*])[*_]([^*_\n]+)[*_](?=[^\w*]|$)/g, '$1$2')
        .replace(/`([^`]*)`/g, '$1'),
    )
    .join('\n');
}

/** Keeps only the allowed emojis and makes sure each mandatory one is present (end of the first line). */
export function applyEmojiRules(text: string, permitidos: readonly string[], obligatorios: readonly string[]): string {
  const allowed = new Set(permitidos);
  let out = text
    .replace(EMOJI, (e) => (allowed.has(e) ? e : ''))
    .split('\n')
    .map((l) => l.replace(/[ \t]{2,}/g, ' ').trimEnd())
    .join('\n');
  const missing = obligatorios.filter((e) => !out.includes(e));
  if (missing.length > 0) {
    const [first, ...rest] = out.split('\n');
    out = [`${first} ${missing.join(' ')}`.trim(), ...rest].join('\n');
  }
  return out;
}

/**
 * Fits the answer into `max` lines without losing content: the body's lines are joined first
 * (list lines with "; "), then the appended tactics go onto the last line.
 */
export function fitLines(body: string, extras: readonly string[], max: number): string {
  const bodyLines = body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const extraLines = extras.map((e) => e.trim()).filter((e) => e !== '');
  if (bodyLines.length + extraLines.length <= max) return [...bodyLines, ...extraLines].join('\n');
  const room = Math.max(1, max - extraLines.length);
  let lines = bodyLines;
  if (lines.length > room) {
    const head = lines.slice(0, room - 1);
    const tail = lines.slice(room - 1);
    lines = [...head, joinSentences(tail)];
  }
  const all = [...lines, ...extraLines];
  if (all.length <= max) return all.join('\n');
  return [...all.slice(0, max - 1), joinSentences(all.slice(max - 1))].join('\n');
}

/** Joins lines into one, adding "; " between lines that do not already end a sentence. */
function joinSentences(lines: readonly string[]): string {
  return lines.reduce((acc, line) => {
    if (acc === '') return line;
    return /[.!?:;]$/.test(acc) ? `${acc} ${line}` : `${acc}; ${line}`;
  }, '');
}

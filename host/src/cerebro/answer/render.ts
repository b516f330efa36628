// How units read in an answer: code in backticks (one line inline, several lines fenced), a table row as its key
// cell, its other cells with their column names and the table it comes from, and a citation marker that does not
// break code.

/** Puts a citation marker before the sentence's final punctuation: "… en /etc/apt [2]." */
export function cite(text: string, n: number): string {
  if (/```$/.test(text)) return `${text}\n[${n}]`;
  if (/`$/.test(text)) return `${text} [${n}]`;
  const m = /([.!?…]+["»”)]*)$/.exec(text);
  return m ? `${text.slice(0, m.index)} [${n}]${m[1]}` : `${text} [${n}].`;
}

/** Code verbatim: one line in backticks, several lines in a fenced block. */
export function renderCode(code: string): string {
  const lines = code.split('\n');
  if (lines.length === 1) {
    const line = code.trim();
    return line.includes('`') ? `\`\` ${line} \`\`` : `\`${line}\``;
  }
  return `\n\`\`\`\n${code}\n\`\`\``;
}

/** A code unit with the sentence that introduces it: "Para ver la hora escriba: `$ date`". */
export function renderCodeWithIntro(code: string, intro: string | undefined): string {
  return intro ? `${intro} ${renderCode(code)}` : renderCode(code);
}

const asCode = (cell: string) => (cell.includes('`') || cell === '' ? cell : `\`${cell}\``);

/** Where a quoted row comes from: ", según la tabla «Órdenes de fecha»", or without a title. */
export const tableSource = (table: string | null): string =>
  table ? `, según la tabla «${table}»` : ', según la tabla';

/**
 * A table row with its header: "orden `date` — acción: muestra la hora, según la tabla «Órdenes de fecha»". The
 * first cell is the row's key; it is set as code when the source marked it as code.
 */
export function renderRow(cells: string[], header: string[] | undefined, table: string | null): string {
  const [first = '', ...rest] = cells;
  const key = first.includes('`')
    ? first
    : header &&
        /orden|comando|command|opci[oó]n|option|archivo|fichero|file|ruta|path|paquete|package/i.test(header[0] ?? '')
      ? asCode(first)
      : first;
  const label = !header?.[0] ? key : key.startsWith('`') ? `${header[0]} ${key}` : `${header[0]}: ${key}`;
  const others = rest
    .map((c, i) => [header?.[i + 1] ?? '', c] as const)
    .filter(([, c]) => c !== '')
    .map(([h, c]) => (h ? `${h}: ${c}` : c))
    .join('; ');
  return `${others ? `${label} — ${others}` : label}${tableSource(table)}.`;
}

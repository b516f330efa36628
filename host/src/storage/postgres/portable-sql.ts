// The sdk's portable SQL (services/database.ts) as PostgreSQL reads it: `?` placeholders become `$1, $2, …` in order,
// and SQLite's `IS ?` / `IS NOT ?` (a comparison that treats NULL as a value) become PostgreSQL's
// `IS NOT DISTINCT FROM $n` / `IS DISTINCT FROM $n`, the same comparison. A `?` inside a string literal, a quoted
// name, a dollar-quoted body or a comment is text, not a placeholder.

/** Where a quoted or commented stretch that starts at `sql[i]` ends (the index after it), or -1 when none starts. */
function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') {
    // A doubled quote inside is an escaped quote, which the loop's restart handles.
    const end = sql.indexOf(c, i + 1);
    return end === -1 ? sql.length : end + 1;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end + 1;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end === -1 ? sql.length : end + 2;
  }
  if (c === '$') {
    const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
    if (tag && !/[\w$]/.test(sql[i - 1] ?? '')) {
      const end = sql.indexOf(tag[0], i + tag[0].length);
      return end === -1 ? sql.length : end + tag[0].length;
    }
  }
  return -1;
}

const IS_NOT = /\bIS\s+NOT\s*$/i;
const IS = /\bIS\s*$/i;

/** The statement with PostgreSQL's numbered placeholders; throws nothing (a malformed statement fails on the server). */
export function toPostgresPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const end = skipQuoted(sql, i);
    if (end !== -1) {
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    const c = sql[i]!;
    if (c === '?') {
      n++;
      if (IS_NOT.test(out)) out = `${out.replace(IS_NOT, 'IS DISTINCT FROM ')}$${n}`;
      else if (IS.test(out)) out = `${out.replace(IS, 'IS NOT DISTINCT FROM ')}$${n}`;
      else out += `$${n}`;
    } else {
      out += c;
    }
    i++;
  }
  return out;
}

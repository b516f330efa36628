// Reads back the FTS5 MATCH expressions the engine writes (cerebro/index/fts-query.ts): the space token, then one or
// more groups of alternative terms that must all match. The PostgreSQL matcher takes the engine's own MatchPlan, so
// both backends run the very same plan. Only that shape is accepted; anything else is a programming error.
import { fts5Tokens } from './fts5-tokens.js';

export interface ParsedMatch {
  /** The space token (`{space_key} : "k…"`). */
  spaceKey: string;
  /** Groups of alternative terms in expression order; a passage matches when every group has one of its terms. */
  groups: string[][];
}

type Token = { kind: 'cols'; value: string } | { kind: 'string'; value: string } | { kind: 'word'; value: string };

function scan(expression: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:\{([^}]*)\}|"((?:[^"]|"")*)"|(:|\(|\)|AND|OR))/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < expression.length && (m = re.exec(expression)) !== null) {
    if (m[1] !== undefined) tokens.push({ kind: 'cols', value: m[1].trim() });
    else if (m[2] !== undefined) tokens.push({ kind: 'string', value: m[2].replace(/""/g, '"') });
    else tokens.push({ kind: 'word', value: m[3]! });
    at = re.lastIndex;
  }
  if (expression.slice(at).trim() !== '') throw new Error(`expresión FTS5 no reconocida: ${expression}`);
  return tokens;
}

/** The single FTS5 token a quoted term stands for (the engine's terms never span several). */
function termOf(quoted: string, expression: string): string {
  const tokens = fts5Tokens(quoted);
  if (tokens.length !== 1) throw new Error(`término FTS5 de ${tokens.length} tokens en ${expression}`);
  return tokens[0]!;
}

/** Parses `{space_key} : "k…" AND {heading body} : ("a" OR "b") [AND {heading body} : (…)]…`. */
export function parseMatchExpression(expression: string): ParsedMatch {
  const tokens = scan(expression);
  let i = 0;
  const next = (): Token => {
    const t = tokens[i++];
    if (!t) throw new Error(`expresión FTS5 incompleta: ${expression}`);
    return t;
  };
  const expect = (kind: Token['kind'], value?: string): Token => {
    const t = next();
    if (t.kind !== kind || (value !== undefined && t.value !== value))
      throw new Error(`expresión FTS5 no reconocida: ${expression}`);
    return t;
  };
  let spaceKey: string | null = null;
  const groups: string[][] = [];
  do {
    const cols = expect('cols').value;
    expect('word', ':');
    const terms: string[] = [];
    const first = next();
    if (first.kind === 'string') terms.push(termOf(first.value, expression));
    else if (first.kind === 'word' && first.value === '(') {
      do terms.push(termOf(expect('string').value, expression));
      while (tokens[i]?.kind === 'word' && tokens[i]!.value === 'OR' && ++i);
      expect('word', ')');
    } else throw new Error(`expresión FTS5 no reconocida: ${expression}`);
    if (cols === 'space_key' && spaceKey === null && terms.length === 1) spaceKey = terms[0]!;
    else if (cols === 'heading body') groups.push(terms);
    else throw new Error(`expresión FTS5 no reconocida: ${expression}`);
  } while (tokens[i]?.kind === 'word' && tokens[i]!.value === 'AND' && ++i);
  if (i !== tokens.length || spaceKey === null || groups.length === 0)
    throw new Error(`expresión FTS5 no reconocida: ${expression}`);
  return { spaceKey, groups };
}

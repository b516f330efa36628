// Several processes on one SQLite file (issue #24): a transaction that reads and then writes must take the write lock
// first (BEGIN IMMEDIATE). A deferred one reads a snapshot, and when another process commits before its first write,
// SQLite answers SQLITE_BUSY at once, without the busy timeout: a 503 `database_busy` for a request that only had to
// wait a few milliseconds (the scale-out test saw uploads fail that way with five processes). This reads the
// repositories' sources and fails on a transaction run deferred, unless its line says it only reads.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../../../src/storage/sqlite/', import.meta.url));
/** A transaction that never writes may stay deferred: its line (or the one above) carries this mark. */
const READ_ONLY = 'read-only transaction';
/** A transaction called inside another runs as a savepoint of it: the outer one took the lock. */
const NESTED = 'inside the transaction of';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `file:line` of each deferred run of a transaction in `text`: `db.transaction(fn)()` or `this.storedTx(...)`. */
export function deferredTransactions(file: string, text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  const says = (i: number, mark: string) => lines[i]!.includes(mark) || (i > 0 && lines[i - 1]!.includes(mark));
  const marked = (i: number) => says(i, READ_ONLY) || says(i, NESTED);
  // Transactions built once and kept in a field: their calls must say `.immediate(`.
  const stored = new Set<string>();
  lines.forEach((line, i) => {
    const field = /this\.(\w+)\s*=\s*\w+\s*\.transaction\(/.exec(line)?.[1];
    if (field && !marked(i)) stored.add(field);
  });
  let open: number | null = null;
  lines.forEach((line, i) => {
    if (/\.transaction\(/.test(line) && !/this\.\w+\s*=/.test(line)) open = i;
    if (open !== null && /\)\(\s*\)/.test(line)) {
      if (!marked(open)) found.push(`${file}:${open + 1}`);
      open = null;
    } else if (open !== null && /\.immediate\(|\.exclusive\(/.test(line)) open = null;
    for (const field of stored) {
      if (new RegExp(`this\\.${field}\\(`).test(line) && !marked(i)) found.push(`${file}:${i + 1}`);
    }
  });
  return found;
}

test('repositories on SQLite take the write lock first in every transaction that writes', () => {
  const files = sources(DIR);
  assert.ok(files.length > 10);
  const found = files.flatMap((path) => deferredTransactions(path.slice(DIR.length), readFileSync(path, 'utf8')));
  assert.deepEqual(found, [], `run these with .immediate(), or mark the line "// ${READ_ONLY}" or "// ${NESTED} …"`);
});

test('the check finds a deferred transaction, inline and stored, and accepts immediate and marked ones', () => {
  const text = [
    'this.db.transaction(() => {',
    '  read(); write();',
    '})();',
    'this.tx = db.transaction(() => write());',
    'this.tx(1);',
    'this.tx.immediate(2);',
    'this.db.transaction(() => write()).immediate();',
    `// ${READ_ONLY}`,
    'this.db.transaction(() => read())();',
  ].join('\n');
  assert.deepEqual(deferredTransactions('x.ts', text), ['x.ts:1', 'x.ts:5']);
});

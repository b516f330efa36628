// The storage port's boundary: callers reach stored state through repositories, and only host/src/storage talks to
// the driver. This reads the sources (the built test sits in host/dist/storage, the sources in host/src) and fails on
// a file outside that folder that imports better-sqlite3 or prepares a statement, naming the file and the line.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Folders whose sources are scanned: the host's and every first-party plugin's and example's. */
const SCANNED = [
  'host/src',
  ...readdirSync(join(ROOT, 'plugins')).map((p) => `plugins/${p}/src`),
  ...readdirSync(join(ROOT, 'examples')).map((p) => `examples/${p}/src`),
];

/**
 * Where the driver may be used: `host/src/storage`, the SQLite side of the port (the passage index included, since it
 * moved there). Tests and their `testing/` helpers seed tables directly, as the repositories' own tests do; the rule
 * is about what ships.
 */
const ALLOWED = ['host/src/storage/'];
const isTestCode = (path: string) => /\.test\.ts$/.test(path) || path.split('/').includes('testing');

/**
 * The driver's two doors: its module, and a statement prepared from SQL text (a literal, or a receiver named as a
 * database handle is named in this code base). `pool.prepare(request)` (the extraction pool) is not a statement.
 */
const DRIVER_IMPORT = /from\s+['"]better-sqlite3['"]|require\(\s*['"]better-sqlite3['"]\s*\)/;
const PREPARE = /\.prepare\s*(?:<[^>]*>)?\(\s*[`'"]|\b(?:db|hostDb|database|sqlite|storage)\s*\.\s*prepare\s*[<(]/;

function sourcesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(ROOT, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourcesUnder(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `path:line: text` of every use of the driver outside the allowed folders. */
export function driverUses(files: readonly string[], read: (path: string) => string): string[] {
  const found: string[] = [];
  for (const path of files) {
    if (ALLOWED.some((a) => path.startsWith(a)) || isTestCode(path)) continue;
    read(path)
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (DRIVER_IMPORT.test(code) || PREPARE.test(code)) found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

test('no shipped source outside host/src/storage reaches the SQLite driver', () => {
  const files = SCANNED.flatMap(sourcesUnder);
  assert.ok(files.length > 100, `the sources were found (${files.length} files under ${ROOT})`);
  assert.ok(files.some((f) => f === 'host/src/admin/admin-service.ts'));
  const uses = driverUses(files, (path) => readFileSync(join(ROOT, path), 'utf8'));
  assert.deepEqual(uses, [], `driver used outside the storage port:\n${uses.join('\n')}`);
});

test('the boundary check sees each door, and lets the storage folder, tests and the extraction pool through', () => {
  const sources: Record<string, string> = {
    'host/src/rag/a.ts': "import Database from 'better-sqlite3';",
    'host/src/rag/b.ts': "const row = db.prepare('SELECT 1').get();",
    'host/src/rag/c.ts': 'const stmt = this.db.prepare<[string], Row>(SQL);',
    'host/src/rag/d.ts': 'const s = handle.prepare(`SELECT id FROM t`);',
    'host/src/rag/e.ts': 'const result = await this.deps.pool.prepare(request); // db.prepare( in a comment',
    'host/src/storage/sqlite/f.ts': "db.prepare('SELECT 1');",
    'host/src/rag/g.test.ts': "db.prepare('SELECT 1');",
    'plugins/x/src/testing/h.ts': "import Database from 'better-sqlite3';",
  };
  const uses = driverUses(Object.keys(sources), (p) => sources[p]!).map((u) => u.split(':')[0]);
  assert.deepEqual(uses, ['host/src/rag/a.ts', 'host/src/rag/b.ts', 'host/src/rag/c.ts', 'host/src/rag/d.ts']);
});

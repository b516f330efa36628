// host/src has no import circle, except type-only imports between files of one folder (issue #22): a circle makes
// load order matter (a class read before its module finished evaluating is `undefined`) and ties concepts together
// that the architecture map keeps apart. Runtime edges are read from the compiled JavaScript (TypeScript drops imports
// used only as types); every import of the sources counts too when it crosses folders, type-only or not. The engine
// (host/src/cerebro) is used from the rest of the host only through its public face, cerebro/index.ts.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE = join(ROOT, 'host/src');
const COMPILED = join(ROOT, 'host/dist');

function filesUnder(dir: string, extension: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) filesUnder(full, extension, out);
    else if (name.endsWith(extension) && !name.endsWith('.d.ts') && !name.includes('.test.')) out.push(full);
  }
  return out;
}

/** The relative module specifiers a file loads statically (imports and re-exports; `import()` is lazy). */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text.startsWith('.')
    )
      specifiers.push(statement.moduleSpecifier.text);
  }
  return specifiers;
}

/** A module's name relative to its package root without extension: `access/key-service`. */
function moduleName(root: string, file: string): string {
  return relative(root, file).replace(/\.(ts|js)$/, '');
}

function edgesOf(root: string, extension: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesUnder(root, extension)) {
    const targets = new Set<string>();
    for (const specifier of staticImports(file)) targets.add(moduleName(root, resolve(dirname(file), specifier)));
    graph.set(moduleName(root, file), targets);
  }
  return graph;
}

/** The folder of host/src a module belongs to, as the README's architecture map names them (`cerebro/index/x` → `cerebro`). */
const folderOf = (module: string): string => module.split('/')[0]!;

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)!.has(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('host/src has no import circle except type-only imports inside one folder', () => {
  const runtime = edgesOf(COMPILED, '.js');
  const sources = edgesOf(SOURCE, '.ts');
  const graph = new Map<string, Set<string>>();
  for (const [from, targets] of sources) {
    const kept = new Set(runtime.get(from) ?? []);
    for (const target of targets) if (folderOf(target) !== folderOf(from)) kept.add(target);
    graph.set(from, kept);
  }
  assert.ok(graph.size > 100, `read ${graph.size} modules of host/src`);
  assert.deepEqual(circles(graph), []);
});

test('outside host/src/cerebro, the engine is imported only through cerebro/index.ts', () => {
  const reachingInside = [...edgesOf(SOURCE, '.ts')].flatMap(([from, targets]) =>
    folderOf(from) === 'cerebro'
      ? []
      : [...targets].filter((t) => folderOf(t) === 'cerebro' && t !== 'cerebro/index').map((t) => `${from} → ${t}`),
  );
  assert.deepEqual(reachingInside, []);
});

test('only the CLI and the package face import the composition root (main/start-host, main/host-container)', () => {
  const root = new Set(['main/start-host', 'main/host-container']);
  const importers = [...edgesOf(SOURCE, '.ts')].flatMap(([from, targets]) =>
    folderOf(from) === 'main' || folderOf(from) === 'cli' || from === 'index'
      ? []
      : [...targets].filter((t) => root.has(t)).map((t) => `${from} → ${t}`),
  );
  assert.deepEqual(importers, []);
});

test('the circle finder sees a runtime circle and a cross-folder type-only circle', () => {
  const graph = new Map<string, Set<string>>([
    ['a/x', new Set(['a/y'])],
    ['a/y', new Set(['b/z'])],
    ['b/z', new Set(['a/x'])],
    ['c/solo', new Set()],
  ]);
  assert.deepEqual(circles(graph), [['a/x', 'a/y', 'b/z']]);
});

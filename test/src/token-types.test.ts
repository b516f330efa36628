// Every token of the host's container is typed by an interface, never by the class that implements it (issue #22):
// whoever injects a token then depends on a shape, the token's module imports no implementation, and no import
// circle can come back through a token. Read from the sources: each `createToken<T>` whose `T` names a class
// declared in the same file or in the relative module it is imported from is reported.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = fileURLToPath(new URL('../../host/src', import.meta.url));

function sourcesUnder(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sourcesUnder(full, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.includes('.test.'))
      out.set(relative(SOURCE, full).replace(/\.ts$/, ''), readFileSync(full, 'utf8'));
  }
  return out;
}

/** The classes a module declares, by name. */
function classesOf(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements)
    if (ts.isClassDeclaration(statement) && statement.name) names.add(statement.name.text);
  return names;
}

/**
 * `module: Type (class of other/module)` for every `createToken<Type>` of the given modules (name → source text,
 * names relative to the package root without extension) whose `Type` is a class.
 */
function classTypedTokens(modules: Map<string, string>): string[] {
  const parsed = new Map<string, ts.SourceFile>();
  const parse = (name: string): ts.SourceFile | undefined => {
    const text = modules.get(name);
    if (text === undefined) return undefined;
    if (!parsed.has(name)) parsed.set(name, ts.createSourceFile(`${name}.ts`, text, ts.ScriptTarget.Latest, true));
    return parsed.get(name);
  };
  const found: string[] = [];
  for (const [name, text] of modules) {
    if (!text.includes('createToken<')) continue;
    const source = parse(name)!;
    // Where each imported name comes from: the module and the name it has there.
    const imported = new Map<string, { module: string; original: string }>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const bindings = statement.importClause?.namedBindings;
      if (!specifier.startsWith('.') || !bindings || !ts.isNamedImports(bindings)) continue;
      const module = relative('/', resolve('/', dirname(name), specifier)).replace(/\.js$/, '');
      for (const element of bindings.elements)
        imported.set(element.name.text, { module, original: (element.propertyName ?? element.name).text });
    }
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'createToken' &&
        node.typeArguments?.length === 1
      ) {
        const type = node.typeArguments[0]!;
        if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
          const typeName = type.typeName.text;
          const from = imported.get(typeName);
          const target = from ? parse(from.module) : source;
          if (target && classesOf(target).has(from?.original ?? typeName))
            found.push(`${name}: ${typeName} (class of ${from?.module ?? name})`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort();
}

test('every createToken in host/src is typed by an interface, never by a class', () => {
  const modules = sourcesUnder(SOURCE);
  const tokenModules = [...modules.values()].filter((text) => text.includes('createToken<')).length;
  assert.ok(tokenModules >= 3, `read ${tokenModules} modules that create tokens`);
  assert.deepEqual(classTypedTokens(modules), []);
});

test('the token checker sees a class of another folder, an aliased one and one of the same file', () => {
  const modules = new Map<string, string>([
    [
      'kernel/tokens',
      "import type { Service as S } from '../feature/service.js';\nexport const T = createToken<S>('s');",
    ],
    ['feature/service', 'export class Service {}\nexport interface Shape {}'],
    ['feature/tokens', "import type { Shape } from './service.js';\nexport const U = createToken<Shape>('u');"],
    ['other/catalog', "export class Catalog {}\nexport const C = createToken<Catalog>('c');"],
  ]);
  assert.deepEqual(classTypedTokens(modules), [
    'kernel/tokens: S (class of feature/service)',
    'other/catalog: Catalog (class of other/catalog)',
  ]);
});

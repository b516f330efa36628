// The executable's bundles share one ES namespace per CommonJS module (scripts/binary/shared-namespaces.mjs): built
// here with the same esbuild the executable's build uses, then run, so a change in esbuild's helper is caught.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { NAMESPACE_MEMO_BANNER, shareNamespaces } = (await import(
  pathToFileURL(join(ROOT, 'scripts/binary/shared-namespaces.mjs')).href
)) as { NAMESPACE_MEMO_BANNER: string; shareNamespaces(source: string): string };

/** Bundles `files['entry.mjs']` as the executable's build does and runs it; returns what it exported. */
async function bundleAndRun(files: Record<string, string>): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-namespaces-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const out = await build({
      entryPoints: [join(dir, 'entry.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      banner: { js: NAMESPACE_MEMO_BANNER },
      logLevel: 'silent',
    });
    const bundled = join(dir, 'bundle.mjs');
    writeFileSync(bundled, shareNamespaces(out.outputFiles[0]!.text));
    return (await import(pathToFileURL(bundled).href)) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('two import sites of one CommonJS module get the same namespace, with its live values', async () => {
  const run = await bundleAndRun({
    'counter.cjs': 'let n = 0; exports.bump = () => ++n; exports.label = "contador";',
    'a.mjs': 'import * as counter from "./counter.cjs"; export const a = counter;',
    'b.mjs': 'import * as counter from "./counter.cjs"; export const b = counter;',
    'entry.mjs': 'export { a } from "./a.mjs"; export { b } from "./b.mjs";',
  });
  const a = run.a as { bump(): number; label: string; default: unknown };
  const b = run.b as typeof a;
  assert.equal(a, b, 'one namespace object for both import sites');
  assert.equal(a.label, 'contador');
  assert.equal(a.bump(), 1);
  assert.equal(b.bump(), 2);
  assert.equal(typeof a.default, 'object', 'the CommonJS exports stay reachable as default');
});

test('a bundle without CommonJS imports is left as it is; an unknown helper shape is refused', () => {
  const plain = 'export const x = 1;\n';
  assert.equal(shareNamespaces(plain), plain);
  assert.throws(() => shareNamespaces('var __toESM = function (mod) { return mod; };\n__toESM(m);'), /changed/);
});

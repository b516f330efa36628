// One ES namespace per CommonJS module in each bundle, instead of one per import site. esbuild's `__toESM` wraps a
// required module in a new object with a getter for each of its properties every time a bundled file imports it:
// the host's bundle did so 200 times (node:path 48, node:fs 37, node:crypto 30: some 7,000 getters defined), several
// milliseconds of every start. The namespace made for a module is kept (per module object, and per interop mode,
// which decides its `default`) and handed to the next import site. A module whose exports grew since (a CommonJS
// cycle still loading at the first import) gets a new one, as esbuild would have made.

/** Goes into each bundle's banner: runs before esbuild's helpers. */
export const NAMESPACE_MEMO_BANNER = [
  'const __cerebroNamespaces = [new WeakMap(), new WeakMap()];',
  'function __cerebroSharedNamespace(mod, isNodeMode, make) {',
  "  if (mod === null || (typeof mod !== 'object' && typeof mod !== 'function')) return make(mod, isNodeMode);",
  '  const made = __cerebroNamespaces[isNodeMode ? 1 : 0];',
  '  const keys = Object.getOwnPropertyNames(mod).length;',
  '  const known = made.get(mod);',
  '  if (known && known.keys === keys) return known.ns;',
  '  const ns = make(mod, isNodeMode);',
  '  made.set(mod, { ns, keys });',
  '  return ns;',
  '}',
].join('\n');

const TO_ESM = 'var __toESM = (mod, isNodeMode, target) => (';

/**
 * `source` (an esbuild ES bundle) with its `__toESM` going through the shared namespaces; unchanged when the bundle
 * imports no CommonJS module. Throws if esbuild's helper no longer reads as expected, so a newer esbuild is noticed.
 */
export function shareNamespaces(source) {
  if (!source.includes('__toESM(')) return source;
  if (!source.includes(TO_ESM)) throw new Error("esbuild's __toESM helper changed: update shared-namespaces.mjs");
  return source.replace(
    TO_ESM,
    'var __toESM = (mod, isNodeMode) => __cerebroSharedNamespace(mod, isNodeMode, __cerebroToESM);\n' +
      'var __cerebroToESM = (mod, isNodeMode, target) => (',
  );
}

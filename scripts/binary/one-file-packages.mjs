// The shared packages the host and the plugins load at every start, each made one file in the tree. They stay out of
// the bundles (bundle.mjs EXTERNAL_PACKAGES: one copy for the host and every plugin), but as published they are many
// small modules: tsyringe 33, the sdk 23, piscina 14, better-sqlite3 13, four fifths of the 97 files a start loaded.
// Node resolves, reads, looks up in the compile cache and links each one; as one file apiece a warm start loads 18.
//
// Each package's entry is replaced in place by an esbuild bundle of itself and its own modules, so every importer
// (host, plugins, packages installed with `cerebro plugins add`) still resolves the same single copy. The files a
// bundle took in are then left out of the tree (a first start creates every file it unpacks), and so are the packages
// only such a bundle needed (tslib). Not ajv: the validators it generates at run time fail once it is bundled
// ("Unexpected token 'default'" compiling a plugin's request schema).
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

const BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * `entry`: a file the package's importers resolve to (its `main`, or the `exports` target they reach), relative to
 * `node_modules`. `external`: packages left as they are (bindings finds the addon from its caller's file, which must
 * stay better-sqlite3's own `lib/`; the sdk's dependencies are shared packages of their own). Every other script of
 * the package leaves the tree, but those in `keep` (relative to the package): nothing reaches them once the entries
 * are bundles (the sdk's testing kit, which needs the host's test kit the executable has not).
 */
export const ONE_FILE_PACKAGES = [
  { entry: 'tsyringe/dist/cjs/index.js', format: 'cjs', external: [] },
  // ES importers reach main.js through esm-wrapper.mjs (the package's `import` condition).
  { entry: 'piscina/dist/main.js', format: 'cjs', external: ['@napi-rs/nice'], keep: ['dist/esm-wrapper.mjs'] },
  // The script piscina starts its threads with (its main names it by path), a bundle of its own. Never imported: no
  // names to declare (and it must not run on the build's thread to read them).
  { entry: 'piscina/dist/worker.js', format: 'cjs', external: ['@napi-rs/nice'], script: true },
  { entry: 'better-sqlite3/lib/index.js', format: 'cjs', external: ['bindings'] },
  { entry: '@cerebro/sdk/dist/index.js', format: 'esm', external: ['tsyringe', 'reflect-metadata', 'ipaddr.js'] },
  // Loaded with onnxruntime (a local model), through onnxruntime-node's CommonJS: 22 files, one now.
  { entry: 'onnxruntime-common/dist/cjs/index.js', format: 'cjs', external: [] },
];

/**
 * The names a CommonJS entry exports, read by `node` (the Node the executable embeds) with the tree's
 * reflect-metadata loaded first (tsyringe refuses to load without a Reflect polyfill).
 */
function exportedNames(node, tree, entry) {
  const script = [
    `require(${JSON.stringify(join(tree, 'node_modules', 'reflect-metadata'))});`,
    `const names = Object.keys(require(${JSON.stringify(join(tree, 'node_modules', entry))}));`,
    'process.stdout.write(JSON.stringify(names));',
  ].join('\n');
  const res = spawnSync(node, ['-e', script], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`could not read the exports of ${entry}:\n${res.stderr}`);
  return JSON.parse(res.stdout).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** The package folder (`node_modules/<name>` or `node_modules/@scope/<name>`) holding `file`, relative to `tree`. */
function packageOf(tree, file) {
  const parts = relative(join(tree, 'node_modules'), file).split(sep);
  return join('node_modules', ...parts.slice(0, parts[0].startsWith('@') ? 2 : 1));
}

/** Whether `source` loads package `name` (or a file of it) by name. */
const loads = (source, name) =>
  new RegExp(`(require\\(|import\\(|from )["']${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(["']|/)`).test(source);

/**
 * Leaves out of `tree` the files the bundles took in (`inlined`, absolute paths), then every other package a bundle
 * took files from that no script left in the tree loads by name (tslib): what is left of them
 * (other builds, other entry points) nothing can reach.
 */
function pruneInlined(tree, inlined, bundled) {
  const touched = new Set();
  for (const file of inlined) {
    rmSync(file, { force: true });
    touched.add(packageOf(tree, file));
  }
  const scripts = new Map(
    filesUnder(tree)
      .filter((f) => /\.(js|cjs|mjs)$/.test(f))
      .map((f) => [f, readFileSync(f, 'utf8')]),
  );
  const removed = [];
  for (const pkg of touched) {
    if (bundled.has(pkg)) continue;
    const dir = join(tree, pkg);
    const name = pkg
      .replace(/^node_modules[/\\]/, '')
      .split(sep)
      .join('/');
    if ([...scripts].some(([f, source]) => !f.startsWith(dir + sep) && loads(source, name))) continue;
    rmSync(dir, { recursive: true, force: true });
    for (const f of scripts.keys()) if (f.startsWith(dir + sep)) scripts.delete(f);
    removed.push(name);
  }
  return removed;
}

/**
 * Replaces each package's entry in `tree` by a bundle of it and leaves out what the bundles took in; returns how many
 * modules each bundle stands for, and the packages left out whole.
 */
export async function bundleSharedPackages({ node, tree, packages = ONE_FILE_PACKAGES }) {
  const done = [];
  const inlined = new Set();
  const bundled = new Set();
  const entries = new Set(packages.map((p) => join(tree, 'node_modules', p.entry)));
  const kept = new Set(
    packages.flatMap(({ entry, keep = [] }) =>
      keep.map((k) => join(tree, packageOf(tree, join(tree, 'node_modules', entry)), k)),
    ),
  );
  for (const { entry, format, external, script = false } of packages) {
    const file = join(tree, 'node_modules', entry);
    // Read before the file is replaced: the names come from the package as published.
    const names = format === 'cjs' && !script ? exportedNames(node, tree, entry) : [];
    const result = await build({
      entryPoints: [file],
      outfile: file,
      allowOverwrite: true,
      bundle: true,
      platform: 'node',
      format,
      target: 'node20',
      external: [...BUILTINS, ...external],
      metafile: true,
      logLevel: 'warning',
      legalComments: 'none',
    });
    // Node gives an ES importer of a CommonJS module the names its lexer finds in the source; a bundle hides them
    // inside a closure, so they are declared again the way esbuild annotates its own CommonJS output.
    if (names.length) appendFileSync(file, `0 && (module.exports = { ${names.join(', ')} });\n`);
    const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(input));
    done.push({ entry, files: inputs.length });
    bundled.add(packageOf(tree, file));
    // A package.json stays even when a bundle took it in (piscina reads its version from it): Node resolves with it.
    for (const input of inputs)
      if (!entries.has(input) && !input.endsWith(`${sep}package.json`) && statSync(input, { throwIfNoEntry: false }))
        inlined.add(input);
  }
  for (const pkg of bundled)
    for (const file of filesUnder(join(tree, pkg)))
      if (
        /\.(js|cjs|mjs|json)$/.test(file) &&
        !file.endsWith(`${sep}package.json`) &&
        !entries.has(file) &&
        !kept.has(file)
      )
        inlined.add(file);
  return { bundles: done, removed: pruneInlined(tree, inlined, bundled) };
}

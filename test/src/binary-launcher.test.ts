// The single executable's launcher (scripts/binary/launcher.cjs) and its archive format (archive.mjs), run as plain
// modules: unpacking (files, modes, links), and which cached build folders a start removes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Launcher {
  unpack(records: Buffer, target: string): void;
  markInUse(root: string, buildId: string, pid?: number): void;
  inUse(root: string, buildId: string): boolean;
  removeUnused(root: string, keep: string): string[];
  removeDeadPartTemps(dir: string): void;
  ensureTree(root: string, buildId: string, readTree: () => Buffer): string;
  adoptCompileCache(dir: string, uid: number): void;
}
const launcher = createRequire(import.meta.url)(join(ROOT, 'scripts/binary/launcher.cjs')) as Launcher;
const { packTree } = (await import(pathToFileURL(join(ROOT, 'scripts/binary/archive.mjs')).href)) as {
  packTree(root: string): { tree: Buffer; raw: number };
};

/** A pid that certainly belongs to no running process: a child that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

async function tempDir(t: { after(fn: () => unknown): void }, name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `cerebro-launcher-${name}-`));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('a packed tree unpacks with its files, their modes and its relative links', async (t) => {
  const dir = await tempDir(t, 'pack');
  const tree = join(dir, 'tree');
  mkdirSync(join(tree, 'a/b'), { recursive: true });
  writeFileSync(join(tree, 'a/b/lib.so'), Buffer.from([0, 1, 2, 255]), { mode: 0o755 });
  writeFileSync(join(tree, 'a/texto.js'), 'export const x = "ñ";\n', { mode: 0o644 });
  symlinkSync('b/lib.so', join(tree, 'a/enlace.so'));
  const { tree: packed } = packTree(tree);
  const out = join(dir, 'out');
  launcher.unpack(packed, out);
  assert.deepEqual(readFileSync(join(out, 'a/b/lib.so')), Buffer.from([0, 1, 2, 255]));
  assert.equal(statSync(join(out, 'a/b/lib.so')).mode & 0o777, 0o755);
  assert.equal(readFileSync(join(out, 'a/texto.js'), 'utf8'), 'export const x = "ñ";\n');
  assert.ok(lstatSync(join(out, 'a/enlace.so')).isSymbolicLink());
  assert.equal(readlinkSync(join(out, 'a/enlace.so')), 'b/lib.so');
  assert.deepEqual(readFileSync(join(out, 'a/enlace.so')), Buffer.from([0, 1, 2, 255]));
});

test('a link pointing out of the tree is refused while unpacking', async (t) => {
  const dir = await tempDir(t, 'escape');
  const tree = join(dir, 'tree');
  mkdirSync(tree);
  symlinkSync('../../etc/passwd', join(tree, 'fuera'));
  assert.throws(() => launcher.unpack(packTree(tree).tree, join(dir, 'out')), /enlace fuera del árbol/);
});

test('a start removes other builds nobody uses and keeps the ones a live process still runs', async (t) => {
  const root = await tempDir(t, 'cache');
  const build = (id: string) => {
    mkdirSync(join(root, id), { recursive: true });
    writeFileSync(join(root, id, '.complete'), id);
    return join(root, id);
  };
  const old = build('1111111111111111'); // no process marks it
  writeFileSync(join(root, '1111111111111111.runtime'), 'node'); // its decompressed runtime (the stub's)
  const running = build('2222222222222222');
  writeFileSync(join(root, '2222222222222222.runtime'), 'node');
  writeFileSync(join(root, 'aaaaaaaaaaaaaaaa.runtime'), 'node'); // this start's own runtime
  launcher.markInUse(root, '2222222222222222', process.pid); // an older executable still serving (this process is alive)
  const crashed = build('3333333333333333');
  const killed = deadPid();
  launcher.markInUse(root, '3333333333333333', killed); // its process was killed: the mark stayed behind
  mkdirSync(join(root, `.tmp-4444444444444444-${deadPid()}`)); // an interrupted first start
  mkdirSync(join(root, `.tmp-5555555555555555-${process.pid}`)); // a first start unpacking right now
  mkdirSync(join(root, 'otra-cosa')); // not ours: never touched

  const tree = join(root, '..', 'arbol');
  mkdirSync(join(tree, 'host'), { recursive: true });
  writeFileSync(join(tree, 'host', 'x.js'), '1');
  const dir = launcher.ensureTree(root, 'aaaaaaaaaaaaaaaa', () => packTree(tree).tree);

  assert.equal(dir, join(root, 'aaaaaaaaaaaaaaaa'));
  assert.equal(readFileSync(join(dir, 'host', 'x.js'), 'utf8'), '1');
  assert.ok(launcher.inUse(root, 'aaaaaaaaaaaaaaaa'), 'the new build is marked by this process');
  assert.ok(existsSync(running), 'a build a live process uses stays');
  assert.ok(!existsSync(old) && !existsSync(crashed), 'unused builds are removed');
  assert.deepEqual((await readdir(root)).sort(), [
    '.en-uso',
    `.tmp-5555555555555555-${process.pid}`,
    '2222222222222222',
    '2222222222222222.runtime',
    'aaaaaaaaaaaaaaaa',
    'aaaaaaaaaaaaaaaa.runtime',
    'otra-cosa',
  ]);
  assert.ok(
    !(await readdir(join(root, '.en-uso'))).includes(`3333333333333333-${killed}`),
    "a dead process's mark is cleared",
  );

  // Once the old executable has stopped (its mark is gone), the next start removes its folder.
  await rm(join(root, '.en-uso', `2222222222222222-${process.pid}`));
  assert.deepEqual(launcher.removeUnused(root, 'aaaaaaaaaaaaaaaa').sort(), [
    '2222222222222222',
    '2222222222222222.runtime',
  ]);
});

test('a second start of the same build reuses its folder without unpacking', async (t) => {
  const root = await tempDir(t, 'reuse');
  const tree = join(root, '..', `arbol-${process.pid}`);
  mkdirSync(tree, { recursive: true });
  t.after(() => rm(tree, { recursive: true, force: true }));
  writeFileSync(join(tree, 'f'), 'x');
  let reads = 0;
  const read = () => {
    reads++;
    return packTree(tree).tree;
  };
  launcher.ensureTree(root, 'bbbbbbbbbbbbbbbb', read);
  launcher.ensureTree(root, 'bbbbbbbbbbbbbbbb', read);
  assert.equal(reads, 1);
});

test("two first starts of the same build at once: the one that renames second uses the other's folder", async (t) => {
  const root = await tempDir(t, 'race');
  const tree = join(root, '..', `arbol-carrera-${process.pid}`);
  mkdirSync(tree, { recursive: true });
  t.after(() => rm(tree, { recursive: true, force: true }));
  writeFileSync(join(tree, 'f'), 'de este proceso');
  const id = 'cccccccccccccccc';
  // While this start unpacks, another process finishes the same build and renames its folder into place first.
  const dir = launcher.ensureTree(root, id, () => {
    mkdirSync(join(root, id));
    writeFileSync(join(root, id, 'f'), 'del otro proceso');
    writeFileSync(join(root, id, '.complete'), id);
    return packTree(tree).tree;
  });
  assert.equal(readFileSync(join(dir, 'f'), 'utf8'), 'del otro proceso');
  assert.deepEqual(
    (await readdir(root)).filter((n) => n.startsWith('.tmp-')),
    [],
    'its own temporary folder is removed',
  );
});

test("the compile cache shipped in the tree, made by the build's user, is renamed for the user who unpacks it", async (t) => {
  const dir = await tempDir(t, 'compile-cache');
  const cache = join(dir, '.compile-cache');
  mkdirSync(join(cache, 'v24.21.0-x64-964aae3f-0'), { recursive: true });
  writeFileSync(join(cache, 'v24.21.0-x64-964aae3f-0', '1a2b3c4d'), 'código');
  mkdirSync(join(cache, 'otra-cosa-7')); // not a Node cache folder: left alone
  launcher.adoptCompileCache(dir, 999);
  assert.deepEqual((await readdir(cache)).sort(), ['otra-cosa-7', 'v24.21.0-x64-964aae3f-999']);
  assert.equal(readFileSync(join(cache, 'v24.21.0-x64-964aae3f-999', '1a2b3c4d'), 'utf8'), 'código');
  launcher.adoptCompileCache(dir, 999); // the same user again: nothing moves
  assert.deepEqual((await readdir(cache)).sort(), ['otra-cosa-7', 'v24.21.0-x64-964aae3f-999']);
  launcher.adoptCompileCache(join(dir, 'sin-cache'), 999); // a tree built without one
});

test("a start clears the temporary folders of deferred parts whose process died, not a live process's", async (t) => {
  const dir = await tempDir(t, 'part-temps');
  const dead = join(dir, `.tmp-parte-onnxruntime-${deadPid()}-0`);
  const live = join(dir, `.tmp-parte-onnxruntime-${process.pid}-3`);
  mkdirSync(join(dead, 'x'), { recursive: true });
  mkdirSync(live);
  mkdirSync(join(dir, 'node_modules'));
  launcher.removeDeadPartTemps(dir);
  assert.deepEqual((await readdir(dir)).sort(), [`.tmp-parte-onnxruntime-${process.pid}-3`, 'node_modules']);
});

// Deferred parts of the single executable: large optional engines (onnxruntime's 44 MB shared library, two thirds of the
// unpacked tree) that a start without local models never needs. The build takes their files out of the tree and
// places them, compressed on their own, in the executable between the compressed runtime and the trailer, so a first
// start neither decompresses nor writes them. The first time such a package is loaded, its entry point (a wrapper the
// build writes, see defer.mjs) calls ensurePart, which unpacks the part's files into their places in the build's
// folder, once: later loads, and later starts of the same build, find them there.
//
// Copied into the tree (`deferred-parts.cjs`, beside its index `deferred-parts.json`) and run by the embedded Node, in
// any thread: the host's and the workers' (transcription's voice detector loads onnxruntime in each worker).
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { threadId } = require('node:worker_threads');

const INDEX = 'deferred-parts.json';
/** The executable's trailer (stub/cerebro-stub.c): magic, 4 × u64 (payload offset and size, runtime size, parts size), build id. */
const TRAILER_SIZE = 56;
const MAGIC = 'CRBSTUB2';

/** Whether every file of `part` is in place with its size (a file cut short by a crash is unpacked again). */
function isUnpacked(treeDir, part) {
  return part.files.every((f) => fs.statSync(path.join(treeDir, f.path), { throwIfNoEntry: false })?.size === f.size);
}

function decompress(codec, bytes) {
  if (codec === 'zstd') {
    if (!zlib.zstdDecompressSync) throw new Error('este Node no descomprime zstd');
    return zlib.zstdDecompressSync(bytes);
  }
  if (codec === 'br') return zlib.brotliDecompressSync(bytes);
  throw new Error(`compresión desconocida: ${codec}`);
}

/**
 * The part's bytes (its files one after the other), read from `executable`, which must be the build `buildId`
 * (the file may have been replaced by a newer build since this process started: its parts lie elsewhere).
 */
function readPart(executable, buildId, name, part, codec) {
  const fd = fs.openSync(executable, 'r');
  try {
    const { size } = fs.fstatSync(fd);
    const trailer = Buffer.alloc(TRAILER_SIZE);
    if (size < TRAILER_SIZE || fs.readSync(fd, trailer, 0, TRAILER_SIZE, size - TRAILER_SIZE) !== TRAILER_SIZE)
      throw new Error(`${executable} no es un ejecutable de Cerebro completo; vuelve a descargarlo`);
    if (trailer.toString('latin1', 0, 8) !== MAGIC || trailer.toString('latin1', 40, 56) !== buildId)
      throw new Error(
        `${executable} ya no es el ejecutable que arrancó este proceso (¿se ha actualizado?): reinícialo para usar ${name}`,
      );
    const compressed = Buffer.alloc(part.length);
    const at = size - TRAILER_SIZE - part.fromEnd;
    if (at < 0 || fs.readSync(fd, compressed, 0, part.length, at) !== part.length)
      throw new Error(`${executable} está incompleto; vuelve a descargarlo`);
    let data;
    try {
      data = decompress(codec, compressed);
    } catch (err) {
      throw new Error(`${name}: no se pudo descomprimir (${err.message}); vuelve a descargar el ejecutable`);
    }
    if (crypto.createHash('sha256').update(data).digest('hex') !== part.sha256)
      throw new Error(`${name}: el ejecutable está dañado; vuelve a descargarlo`);
    return data;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Makes sure part `name` of the build unpacked in `treeDir` (a folder named by its build id) is in place, unpacking
 * it from `executable` when it is not. Returns whether this call unpacked it.
 *
 * Several processes, or threads of one, may do this at once: each writes the files into a temporary folder of its
 * own and renames them into place, so a file is always either absent or whole; the last rename wins with the same
 * bytes, and a thread that loaded the earlier copy keeps it (the old inode lives on while mapped).
 */
function ensurePart(treeDir, name, executable = process.env.CEREBRO_EXECUTABLE) {
  const index = JSON.parse(fs.readFileSync(path.join(treeDir, INDEX), 'utf8'));
  const part = index.parts[name];
  if (!part) throw new Error(`parte desconocida del ejecutable: ${name}`);
  if (isUnpacked(treeDir, part)) return false;
  if (!executable)
    throw new Error(
      `no se sabe qué ejecutable arrancó este proceso (CEREBRO_EXECUTABLE): ${name} no está desempaquetado`,
    );
  const data = readPart(executable, path.basename(treeDir), name, part, index.codec);
  // The launcher clears the folders of processes killed in the middle (removeDeadPartTemps in launcher.cjs).
  const tmp = path.join(treeDir, `.tmp-parte-${name}-${process.pid}-${threadId}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp);
  try {
    let at = 0;
    part.files.forEach((file, i) => {
      fs.writeFileSync(path.join(tmp, String(i)), data.subarray(at, at + file.size), { mode: file.mode });
      at += file.size;
    });
    part.files.forEach((file, i) => {
      const target = path.join(treeDir, file.path);
      if (!target.startsWith(treeDir + path.sep)) throw new Error(`ruta fuera del árbol: ${file.path}`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.renameSync(path.join(tmp, String(i)), target);
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return true;
}

module.exports = { ensurePart, INDEX, TRAILER_SIZE, MAGIC };

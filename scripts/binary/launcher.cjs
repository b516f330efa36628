// Main script of the single executable (CommonJS: what Node's SEA runs). On first start it unpacks the embedded tree
// into `<cache>/<build id>` (a temporary folder renamed into place, so a crash never leaves half a tree), then runs
// the host's CLI from there. Real files are needed because native addons find their shared libraries beside them
// and worker threads load their scripts from disk.
//
// Each running process marks the build it uses (`<cache>/.en-uso/<build id>-<pid>`, removed at exit) before it even
// looks at the folder, and at every start the folders of other builds are removed only when no live process marks
// them: replacing the executable while the old one still serves (an upgrade before the restart) must not pull its
// files from under it.
//
// Outside an executable (tests), the file only exports its functions.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const BUILD_ID_PATTERN = /^[0-9a-f]{16}$/;
const TEMP_PATTERN = /^\.tmp-[0-9a-f]{16}-(\d+)$/;
/** The decompressed runtime the executable's stub (stub/cerebro-stub.c) runs, one per build. */
const RUNTIME_PATTERN = /^([0-9a-f]{16})\.runtime$/;
const IN_USE = '.en-uso';

function cacheRoot(env) {
  if (env.CEREBRO_CACHE_DIR) return path.resolve(env.CEREBRO_CACHE_DIR);
  // systemd's CacheDirectory= exports CACHE_DIRECTORY.
  if (env.CACHE_DIRECTORY) return path.resolve(env.CACHE_DIRECTORY.split(':')[0]);
  const xdg = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'cerebro');
}

/** Reads the records written by scripts/binary/archive.mjs: files, and symbolic links (mode with S_IFLNK). */
function unpack(data, target) {
  // Folders already made: the records come grouped by folder, so most files need no mkdir (a syscall or two each).
  const made = new Set();
  let at = 0;
  while (at < data.length) {
    const pathLength = data.readUInt32LE(at);
    const name = data.toString('utf8', at + 4, at + 4 + pathLength);
    const mode = data.readUInt32LE(at + 4 + pathLength);
    const size = data.readDoubleLE(at + 8 + pathLength);
    const start = at + 16 + pathLength;
    const file = path.join(target, name);
    if (!file.startsWith(target + path.sep)) throw new Error(`ruta fuera del árbol: ${name}`);
    const folder = path.dirname(file);
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    const bytes = data.subarray(start, start + size);
    if ((mode & 0o170000) === 0o120000) {
      const link = bytes.toString('utf8');
      if (path.isAbsolute(link) || !path.resolve(path.dirname(file), link).startsWith(target + path.sep))
        throw new Error(`enlace fuera del árbol: ${name}`);
      fs.symlinkSync(link, file);
    } else {
      fs.writeFileSync(file, bytes, { mode: mode & 0o777 });
    }
    at = start + size;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

const markName = (buildId, pid) => `${buildId}-${pid}`;

/** Marks build `buildId` as used by process `pid` (this one: until it exits). */
function markInUse(root, buildId, pid = process.pid) {
  const marks = path.join(root, IN_USE);
  fs.mkdirSync(marks, { recursive: true });
  const mark = path.join(marks, markName(buildId, pid));
  fs.writeFileSync(mark, '');
  if (pid === process.pid)
    process.once('exit', () => {
      try {
        fs.rmSync(mark, { force: true });
      } catch {
        /* best effort */
      }
    });
}

/**
 * The pids marking builds, by build id. Marks of dead processes (a SIGKILL leaves its mark) are deleted on the way.
 */
function liveMarks(root) {
  const live = new Map();
  let names = [];
  try {
    names = fs.readdirSync(path.join(root, IN_USE));
  } catch {
    /* no marks yet */
  }
  for (const name of names) {
    const m = /^([0-9a-f]{16})-(\d+)$/.exec(name);
    if (!m) continue;
    if (!isAlive(Number(m[2]))) {
      fs.rmSync(path.join(root, IN_USE, name), { force: true });
      continue;
    }
    live.set(m[1], [...(live.get(m[1]) ?? []), Number(m[2])]);
  }
  return live;
}

/** Whether a live process marks build `buildId`. */
function inUse(root, buildId) {
  return liveMarks(root).has(buildId);
}

/**
 * Removes the folders of other builds no live process uses, and temporary folders left by an interrupted first
 * start. Never `keep`. Returns the names removed.
 */
function removeUnused(root, keep) {
  const removed = [];
  const live = liveMarks(root);
  for (const name of fs.readdirSync(root)) {
    if (name === keep) continue;
    const full = path.join(root, name);
    const temp = TEMP_PATTERN.exec(name);
    const runtime = RUNTIME_PATTERN.exec(name);
    const stale = temp
      ? !isAlive(Number(temp[1]))
      : runtime
        ? runtime[1] !== keep && !live.has(runtime[1])
        : BUILD_ID_PATTERN.test(name) && !live.has(name);
    if (!stale) continue;
    fs.rmSync(full, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** Temporary folders of deferred parts being unpacked (deferred-parts.cjs), `<part>-<pid>-<thread id>`. */
const PART_TEMP_PATTERN = /^\.tmp-parte-.+-(\d+)-\d+$/;

/** Removes from build folder `dir` the temporary folders of part unpackings whose process died in the middle. */
function removeDeadPartTemps(dir) {
  for (const name of fs.readdirSync(dir)) {
    const m = PART_TEMP_PATTERN.exec(name);
    if (m && !isAlive(Number(m[1]))) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/** V8's compiled code of the tree's modules: made at build time (compile-cache.mjs), kept up to date by every start. */
const COMPILE_CACHE = '.compile-cache';

/**
 * Node keeps its compile cache in a folder per Node version, V8 version and user id (`v24.21.0-x64-1a2b3c4d-0`): the
 * cache shipped in the tree was made by the build's user. Renamed for the user running now, it is found on the first
 * start already; a folder name in another form is left alone (its cache is then simply not found, and made anew).
 */
function adoptCompileCache(dir, uid) {
  const base = path.join(dir, COMPILE_CACHE);
  let names = [];
  try {
    names = fs.readdirSync(base);
  } catch {
    return; /* built without one */
  }
  for (const name of names) {
    const m = /^(v\d+\.\d+\.\d+-[^-]+-[0-9a-f]{8})-(\d+)$/.exec(name);
    if (!m || Number(m[2]) === uid) continue;
    const own = path.join(base, `${m[1]}-${uid}`);
    if (!fs.existsSync(own)) fs.renameSync(path.join(base, name), own);
  }
}

/** Turns on Node's compile cache in the tree, portable (keyed by paths relative to it) where this Node has that. */
function enableCompileCache(dir) {
  const { enableCompileCache: enable } = require('node:module');
  if (!enable) return; // Node 20: no compile cache
  const directory = path.join(dir, COMPILE_CACHE);
  try {
    enable({ directory, portable: true });
  } catch {
    enable(directory); // Node before 24.12 takes only the folder
  }
}

/** The unpacked folder of build `buildId` under `root`, unpacking `readTree()` (packed records) the first time. */
function ensureTree(root, buildId, readTree) {
  const dir = path.join(root, buildId);
  // Marked first: a start of another build that looks from now on keeps this folder.
  markInUse(root, buildId);
  if (!fs.existsSync(path.join(dir, '.complete'))) {
    const tmp = path.join(root, `.tmp-${buildId}-${process.pid}`);
    fs.rmSync(tmp, { recursive: true, force: true });
    unpack(readTree(), tmp);
    if (process.getuid) adoptCompileCache(tmp, process.getuid());
    fs.writeFileSync(path.join(tmp, '.complete'), `${buildId}\n`);
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // Another process unpacked the same build first: use its folder.
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!fs.existsSync(path.join(dir, '.complete'))) throw err;
    }
  }
  removeUnused(root, buildId);
  removeDeadPartTemps(dir);
  return dir;
}

function main() {
  // The 16 MB young generation the executable starts with (sea-config execArgv, young-generation.mjs) is for this
  // thread's start: threads made from now on (search, indexing, transcription) get V8's default again, instead of
  // each filling 16 MB before its first scavenge. V8 reads the flag when it makes a heap, not after.
  require('node:v8').setFlagsFromString('--min-semi-space-size=0');
  const sea = require('node:sea');
  const buildId = Buffer.from(sea.getRawAsset('build-id')).toString('utf8').trim();
  const dir = ensureTree(cacheRoot(process.env), buildId, () => Buffer.from(sea.getRawAsset('tree')));
  // V8's compiled code of the host's bundles, shipped with them and kept beside them: a start skips compiling them
  // (Node ≥ 22.1; the embedded LTS has it, a Node 20 build simply goes without).
  enableCompileCache(dir);
  // The executable is also `process.execPath`: a child started as `<exe> script.js args` (the host does this to
  // check a Whisper model in its own process) runs that script, as `node script.js args` would.
  const first = process.argv[2];
  const runsScript = first !== undefined && path.isAbsolute(first) && /\.(m|c)?js$/.test(first) && fs.existsSync(first);
  const entry = runsScript ? first : path.join(dir, 'host', 'dist', 'cli', 'main.js');
  process.argv = runsScript ? [process.execPath, first, ...process.argv.slice(3)] : process.argv;
  // A require from a real file (the SEA's own `require` only knows built-ins); `start.cjs` imports the ES module.
  createRequire(path.join(dir, 'start.cjs'))('./start.cjs')(entry).catch((err) => {
    process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  });
}

let insideExecutable = false;
try {
  insideExecutable = require('node:sea').isSea();
} catch {
  /* Node without node:sea: not an executable */
}
if (insideExecutable) main();
else
  module.exports = {
    cacheRoot,
    unpack,
    markInUse,
    inUse,
    removeUnused,
    removeDeadPartTemps,
    ensureTree,
    adoptCompileCache,
  };

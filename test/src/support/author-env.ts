import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKSPACE_SQLITE = fileURLToPath(new URL('../../../node_modules/better-sqlite3/', import.meta.url));
let prebuildsDir: string | null | undefined;

/**
 * A folder holding the workspace's own better-sqlite3 addon packed as the prebuilt binary that `prebuild-install`
 * would download from the project's releases (which this machine cannot reach), named for the running Node's ABI.
 * An author's install of the same version then unpacks it instead of compiling for two minutes; another version
 * finds no match and compiles as before. Null when the workspace has no compiled addon.
 */
function localPrebuilds(): string | null {
  if (prebuildsDir !== undefined) return prebuildsDir;
  const addon = join(WORKSPACE_SQLITE, 'build/Release/better_sqlite3.node');
  if (!existsSync(addon)) return (prebuildsDir = null);
  const { version } = JSON.parse(readFileSync(join(WORKSPACE_SQLITE, 'package.json'), 'utf8')) as { version: string };
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-prebuilds-'));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(dir, name), '-C', WORKSPACE_SQLITE, 'build/Release/better_sqlite3.node']);
  return (prebuildsDir = dir);
}

/**
 * The environment for npm in a plugin author's project: this process's, less the settings `npm test` exported for
 * the workspace (npm_*, which would point npm back at it), with node-gyp given the running Node's own headers
 * when it has them (better-sqlite3 compiles when its prebuilt binary cannot be downloaded).
 */
export function authorEnv(): NodeJS.ProcessEnv {
  // NODE_TEST_CONTEXT: set by this test runner for its children; the project's `node --test` must report normally.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_TEST_CONTEXT'),
  );
  const prefix = dirname(dirname(process.execPath));
  if (existsSync(join(prefix, 'include/node/node.h'))) env.npm_config_nodedir = prefix;
  const prebuilds = localPrebuilds();
  if (prebuilds !== null) env.npm_config_better_sqlite3_local_prebuilds = prebuilds;
  return env;
}

// better-sqlite3 12 compiled against Node 24.19+ headers aborts the process when a statement is collected
// (nodejs/node#65446, see scripts/binary/lts-node.mjs): on such a Node an author's install cannot be made to work here.
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
/** Why a test installing the host in an author's project is skipped on this Node, or false. */
export const brokenHeaders =
  major === 24 && minor >= 19
    ? `better-sqlite3 12 cannot be compiled for Node ${process.versions.node} (nodejs/node#65446)`
    : false;

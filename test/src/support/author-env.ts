import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The environment for npm in a plugin author's project: this process's, less the settings `npm test` exported for
 * the workspace (npm_*, which would point npm back at it), with node-gyp given the running Node's own headers
 * when it has them (better-sqlite3 compiles when its prebuilt binary cannot be downloaded).
 */
export function authorEnv(): NodeJS.ProcessEnv {
  // NODE_TEST_CONTEXT: set by this test runner for its children; the project's `node --test` must report normally.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_TEST_CONTEXT'));
  const prefix = dirname(dirname(process.execPath));
  if (existsSync(join(prefix, 'include/node/node.h'))) env.npm_config_nodedir = prefix;
  return env;
}

// better-sqlite3 12 compiled against Node 24.19+ headers aborts the process when a statement is collected
// (nodejs/node#65446, see scripts/binary/lts-node.mjs): on such a Node an author's install cannot be made to work here.
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
/** Why a test installing the host in an author's project is skipped on this Node, or false. */
export const brokenHeaders = major === 24 && minor >= 19 ? `better-sqlite3 12 cannot be compiled for Node ${process.versions.node} (nodejs/node#65446)` : false;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminActions } from '../admin/admin-services.js';
import {
  bootstrapFirstRun,
  FIRST_RUN_FILE,
  FIRST_RUN_POINTS,
  FIRST_RUN_STEP,
  type FirstRunPause,
  type FirstRunPoint,
  type FirstRunResult,
  saveFirstRunFile,
} from './first-run.js';

/** What the first run needs of a started host: those members of `RunningHost` (main/start-host.ts). */
export interface FirstRunHost {
  readonly admin: AdminActions;
  readonly config: { readonly dataDir: string };
  readonly url: string;
  firstStart<T>(name: string, step: () => Promise<T | null>): Promise<T | null>;
}

/** What the first start set up, and the file its credentials were written to. */
export interface FirstRunSetup {
  result: FirstRunResult;
  file: string;
}

/**
 * Sets up the first run as one unit (`host.firstStart`: one transaction, under the lock of the hosts sharing the
 * database): the demo's rows, then the credentials file, written and flushed before the commit. A process killed at
 * any instant before the commit leaves an empty database, which the next start sets up again (replacing the file);
 * one killed after it leaves both. Never rows whose credentials nobody was given. Null when the database had data.
 */
export async function setUpFirstRun(
  host: FirstRunHost,
  modules: string[],
  pause: FirstRunPause = () => Promise.resolve(),
): Promise<FirstRunSetup | null> {
  const setup = await host.firstStart(FIRST_RUN_STEP, async () => {
    const result = await bootstrapFirstRun(host.admin, modules, pause);
    if (!result) return null;
    const file = saveFirstRunFile(host.config.dataDir, host.url, result);
    await pause('archivo');
    return { result, file };
  });
  if (setup) await pause('confirmado');
  return setup;
}

/**
 * `<data dir>/primer-arranque.txt` when the operator credential it names was never issued by this database: the file
 * of a first start that died before its commit, whose database another host then set up (hosts with folders of
 * their own on one PostgreSQL database), or a file from another database. Left where it is (it may belong to another
 * database), for the caller to warn. Call it only once the database is set up (`setUpFirstRun` answered null): no
 * first run can be writing the file then. Null when there is no such file.
 */
export async function unsavedFirstRunFile(admin: AdminActions, dataDir: string): Promise<string | null> {
  const file = join(dataDir, FIRST_RUN_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const operator = /cra_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  return operator && !(await admin.operatorCredentialIssued(operator)) ? file : null;
}

/**
 * The crash tests' hook: with `CEREBRO_TEST_FIRST_RUN_PAUSE=<point>` the first run writes `pausa del primer
 * arranque: <point>` on stderr once it is past that point and waits there until the test kills the process.
 * Undefined (no pause) without the variable.
 */
export function firstRunTestPause(env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): FirstRunPause | undefined {
  const at = env.CEREBRO_TEST_FIRST_RUN_PAUSE;
  if (!at || !(FIRST_RUN_POINTS as readonly string[]).includes(at)) return undefined;
  return (point: FirstRunPoint) =>
    point === at
      ? new Promise<void>(() => {
          stderr.write(`pausa del primer arranque: ${point}\n`);
        })
      : Promise.resolve();
}

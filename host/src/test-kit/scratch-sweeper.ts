// DROP DATABASE is slow on PostgreSQL 15: it waits for a checkpoint (0.3–1.7 s measured on the 2-core machines, more
// than the whole start of the host that used the database). Within a test run no test waits for it: a scratch
// database is named after the process that made it, and closing it renames it with a mark (a few milliseconds);
// scripts/run-tests.mjs drops, in the background while the tests run, the run's databases that are marked or whose
// process has exited (a server's database lives as long as its test process), and at the end whatever is left.
import { randomBytes } from 'node:crypto';
import { databasesStartingWith, dropWithPluginRoles, onServer } from './scratch-server.js';

const FINISHED = '_f';

/** `<prefix>p<pid>_<random>`: a scratch database of this process. */
export function scratchName(prefix: string): string {
  return `${prefix}p${process.pid.toString(36)}_${randomBytes(6).toString('hex')}`;
}

/** Marks a scratch database as closed, for the run's sweeper to drop. False when it could not (left for the end). */
export async function markFinished(name: string): Promise<boolean> {
  try {
    // Waits (up to 5 s, PostgreSQL's own limit) for the host's last connections to end.
    await onServer(`ALTER DATABASE ${name} RENAME TO ${name}${FINISHED}`);
    return true;
  } catch {
    return false;
  }
}

/** Whether process `pid` is still running (a process of another user counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the scratch database `name` (of the run with `prefix`) is done with: closed, or its process gone. */
export function isFinished(name: string, prefix: string, alive: (pid: number) => boolean = processAlive): boolean {
  const match = /^p([0-9a-z]+)_[0-9a-f]{12}(_f)?$/.exec(name.slice(prefix.length));
  if (!match || !name.startsWith(prefix)) return false; // the run's template, or not a scratch database
  return match[2] === FINISHED || !alive(Number.parseInt(match[1]!, 36));
}

/**
 * Drops the run's scratch databases that are done with (with their plugin roles), one at a time: drops wait for
 * checkpoints, and several at once only queue behind each other. Returns the names dropped.
 */
export async function dropFinishedScratchDatabases(
  prefix: string,
  alive: (pid: number) => boolean = processAlive,
): Promise<string[]> {
  const done = (await databasesStartingWith(prefix)).filter((name) => isFinished(name, prefix, alive));
  for (const name of done) await dropWithPluginRoles(name);
  return done;
}

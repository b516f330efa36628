// Temporary files (uploads in progress) live in a folder owned by one process: `<data>/tmp/<pid>-<start>`.
// A process killed with SIGKILL cannot clean up, so each server start removes the folders of owners that are no
// longer alive. The start stamp guards against pid reuse: a folder whose pid now belongs to another process (with
// another start stamp) is dead too. A CLI run or a second server on the same data directory therefore never
// removes the files of a live server.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Folder names written by this version: `<pid>-<start stamp>`. */
const OWNED = /^(\d+)-(\d+)$/;
/** Upload folders written directly under `tmp/` by versions before per-process folders. */
const LEGACY = /^upload-/;
/** Any upload of an older version is over after this long (the HTTP server's request timeout is 5 minutes). */
const LEGACY_MAX_AGE_MS = 10 * 60_000;

/**
 * When a process started, as a number that stays the same for its whole life: on Linux the kernel's start time in
 * clock ticks since boot (`/proc/<pid>/stat`, field 22), elsewhere null (liveness is then judged by pid alone).
 */
export function processStartStamp(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

let ownStamp: string | undefined;
export const stampOfThisProcess = (): string =>
  (ownStamp ??= processStartStamp(process.pid) ?? String(Math.round(Date.now() - process.uptime() * 1000)));

export const tempRootOf = (dataDir: string): string => join(dataDir, 'tmp');

/** This process's own temporary folder under the data directory (created by whoever writes into it). */
export function processTempDir(dataDir: string): string {
  return join(tempRootOf(dataDir), `${process.pid}-${stampOfThisProcess()}`);
}

/** Whether the process `pid` that started at `stamp` still runs (a reused pid has another stamp). */
export function isAlive(pid: number, stamp: string): boolean {
  if (pid === process.pid) return stamp === stampOfThisProcess();
  const current = processStartStamp(pid);
  if (current !== null) return current === stamp;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

/** Removes the temporary folders of processes that are gone; returns their names. Never throws. */
export function removeDeadTempDirs(dataDir: string, now: number = Date.now()): string[] {
  const root = tempRootOf(dataDir);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const owned = OWNED.exec(name);
    const dead = owned
      ? !isAlive(Number(owned[1]), owned[2]!)
      : LEGACY.test(name) && isOlderThan(join(root, name), now - LEGACY_MAX_AGE_MS);
    if (!dead) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Left for the next start; a folder we cannot remove must not stop the service.
    }
  }
  return removed;
}

function isOlderThan(path: string, limit: number): boolean {
  try {
    return statSync(path).mtimeMs < limit;
  } catch {
    return false;
  }
}

/** Removes this process's folder at a graceful stop when nothing is left in it (another host may share it). */
export async function releaseProcessTempDir(dataDir: string): Promise<void> {
  await rmdir(processTempDir(dataDir)).catch(() => undefined);
}

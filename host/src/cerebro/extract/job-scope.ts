// What one preparation job lends the external tools it runs: its deadline, so that every tool run gets its own
// bounded share (its own limit, never past what is left of the job's); a temporary folder the job's owner deletes
// whatever happens to the worker; and the registry through which a terminated job's tools are killed. Carried with
// AsyncLocalStorage, so documents prepared at the same time in one thread (tests) keep their own.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildRegistry } from './child-registry.js';

interface JobScope {
  /** Epoch ms past which no tool may run; null: no job deadline (each tool keeps its own limit). */
  deadlineAt: number | null;
  /**
   * Where the job's temporary files go (a folder its owner removes after the job, aborted or not). The owner only
   * names it: it is made at the first `jobTempDir`, since most documents (text, HTML) never need one.
   */
  tempRoot: string;
  /** The job's folder exists (made here, or the system's temporary folder). */
  made: boolean;
  /** Told before the job's folder is made, so that its owner knows to remove it. */
  onMake: (() => void) | null;
  children: ChildRegistry | null;
}

export interface JobScopeOptions {
  /** The job's time limit (0 or absent: none). */
  timeoutMs?: number;
  tempRoot?: string;
  /** Called (once) before `tempRoot` is made: until then the owner has no folder to remove. */
  onMake?: () => void;
  children?: ChildRegistry | null;
}

const scope = new AsyncLocalStorage<JobScope>();

/** Runs `fn` as one job; inside a job already, `fn` stays in the outer one (its deadline and folder). */
export function inJob<T>(options: JobScopeOptions, fn: () => Promise<T>): Promise<T> {
  if (scope.getStore()) return fn();
  const timeoutMs = options.timeoutMs ?? 0;
  return scope.run(
    {
      deadlineAt: timeoutMs > 0 ? Date.now() + timeoutMs : null,
      tempRoot: options.tempRoot ?? tmpdir(),
      made: options.tempRoot === undefined,
      onMake: options.onMake ?? null,
      children: options.children ?? null,
    },
    fn,
  );
}

/**
 * The time limit of one tool run: its own `capMs`, cut to what is left of the job (at least 1 ms, so a run that
 * starts past the deadline is killed at once and reported as out of time).
 */
export function toolTimeout(capMs: number): number {
  const deadlineAt = scope.getStore()?.deadlineAt;
  if (deadlineAt === null || deadlineAt === undefined) return capMs;
  return Math.max(1, Math.min(capMs, deadlineAt - Date.now()));
}

/**
 * A fresh temporary folder inside the job's own (removed with it even when the worker is terminated). The job's
 * folder is made here the first time: its name is unguessable (the owner's random UUID) and only this user may enter
 * it; a folder already there of that name is the job's own (made by an earlier call of the same job).
 */
export async function jobTempDir(prefix: string): Promise<string> {
  const job = scope.getStore();
  if (job && !job.made) {
    job.onMake?.();
    await mkdir(job.tempRoot, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    job.made = true;
  }
  return mkdtemp(join(job?.tempRoot ?? tmpdir(), prefix));
}

/** The current job's registry of running tools, when its owner kills them on abort. */
export const jobChildren = (): ChildRegistry | null => scope.getStore()?.children ?? null;

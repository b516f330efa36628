import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/**
 * Kills `child` when `timeoutMs` passes or `signal` aborts; `settle` runs its callback once and drops both guards.
 */
export function guardChild(
  child: ChildProcess,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): { settle(fn: () => void): void; timedOut(): boolean } {
  let settled = false;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const onAbort = (): void => {
    child.kill('SIGKILL');
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    settle(fn) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    },
    timedOut: () => timedOut,
  };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a short command to completion, keeping at most `maxOutput` characters of each stream. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { timeoutMs: number; signal?: AbortSignal; maxOutput?: number },
): Promise<RunResult> {
  const maxOutput = options.maxOutput ?? 1_000_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < maxOutput) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < maxOutput) stderr += d;
    });
    const guard = guardChild(child, options);
    child.on('error', (err) => guard.settle(() => reject(err)));
    child.on('close', (code, signal) => guard.settle(() => resolve({ code, signal, stdout, stderr })));
  });
}

/**
 * Whether `command` names an executable file where spawn would look for it: the path itself when it has a slash,
 * else each folder of PATH. Starts no process.
 */
export async function isExecutableFound(command: string, path = process.env.PATH ?? ''): Promise<boolean> {
  const candidates = command.includes('/')
    ? [command]
    : path
        .split(delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => join(dir, command));
  for (const candidate of candidates) {
    const found = await access(candidate, constants.X_OK).then(
      () => stat(candidate).then((s) => s.isFile()),
      () => false,
    );
    if (found) return true;
  }
  return false;
}

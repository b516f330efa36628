// Runs an external tool (poppler, tesseract) with a time limit that kills the child itself: terminating the worker
// thread alone would leave it running. Each run gets its own limit, cut to what is left of its job (job-scope.ts);
// the tool leads its own process group, which is what a timer, an overflow or an aborted job kills (the job's
// owner finds it in the job's ChildRegistry). A missing binary is reported with the Debian package that provides it.
// Output is bounded: stdout up to `maxStdoutBytes` (beyond it the child is killed and `overflow` is set), stderr
// only its last 64 KB — a malformed PDF made poppler print 63 MB of "Syntax Error" lines, and only the end of it
// (the fatal message, if any) is ever looked at.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { killProcessGroup } from './child-registry.js';
import { jobChildren, toolTimeout } from './job-scope.js';

export interface ToolResult {
  stdout: string;
  stderr: string;
  code: number;
  /** Killed at its time limit. */
  killed: boolean;
  /** Killed because its output passed `maxStdoutBytes`; `stdout` then holds only what came before. */
  overflow: boolean;
  /** The time limit this run had (its own, or less when its job had less left). */
  timeoutMs: number;
}

export interface ToolOptions {
  /** This run's own time limit (0: none); inside a job, never more than the job has left. */
  timeoutMs: number;
  debianPackage: string;
  env?: NodeJS.ProcessEnv;
  /** Default 32 MB. */
  maxStdoutBytes?: number;
}

export const STDERR_TAIL_BYTES = 64 * 1024;
const DEFAULT_MAX_STDOUT_BYTES = 32 * 1024 * 1024;

export class ToolMissingError extends Error {
  override readonly name = 'ToolMissingError';
  constructor(
    readonly tool: string,
    readonly debianPackage: string,
  ) {
    super(`${tool} is not installed (Debian package ${debianPackage})`);
  }
}

/** Keeps the last `size` bytes written to it. */
class Tail {
  private kept = Buffer.alloc(0);
  constructor(private readonly size: number) {}
  push(chunk: Buffer): void {
    const joined = Buffer.concat([this.kept, chunk]);
    // A copy of the tail, so that the larger concatenation can be collected.
    this.kept = joined.length <= this.size ? joined : Buffer.from(joined.subarray(-this.size));
  }
  toString(): string {
    return this.kept.toString('utf8');
  }
}

export function runTool(cmd: string, args: string[], options: ToolOptions): Promise<ToolResult> {
  const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES;
  const timeoutMs = options.timeoutMs > 0 ? toolTimeout(options.timeoutMs) : toolTimeout(Number.POSITIVE_INFINITY);
  const limited = Number.isFinite(timeoutMs);
  return new Promise((resolve, reject) => {
    // Detached: the tool leads a process group of its own, so killing the group also ends anything it started.
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...(options.env ? { env: options.env } : {}),
    });
    const pid = child.pid;
    const children = jobChildren();
    if (pid !== undefined) children?.add(pid);
    const kill = () => {
      if (pid === undefined || !killProcessGroup(pid)) child.kill('SIGKILL');
    };
    // Decoded as it arrives, as execFile does: the bytes are let go at once rather than held until the end.
    const stdout: string[] = [];
    const decoder = new StringDecoder('utf8');
    let stdoutBytes = 0;
    const stderr = new Tail(STDERR_TAIL_BYTES);
    let killed = false;
    let overflow = false;
    const timer = limited
      ? setTimeout(() => {
          killed = true;
          kill();
        }, timeoutMs)
      : undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (overflow) return;
      if (stdoutBytes + chunk.length > maxStdout) {
        overflow = true;
        kill();
        return;
      }
      stdout.push(decoder.write(chunk));
      stdoutBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (pid !== undefined) children?.remove(pid);
      if (err.code === 'ENOENT') reject(new ToolMissingError(cmd, options.debianPackage));
      else reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (pid !== undefined) children?.remove(pid);
      stdout.push(decoder.end());
      resolve({
        stdout: stdout.join(''),
        stderr: stderr.toString(),
        code: code ?? 1,
        killed,
        overflow,
        timeoutMs: limited ? timeoutMs : 0,
      });
    });
  });
}

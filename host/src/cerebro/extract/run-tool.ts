// Runs an external tool (poppler, tesseract) with a time limit that kills the child itself: terminating the worker
// thread alone would leave it running. A missing binary is reported with the Debian package that provides it.
import { execFile } from 'node:child_process';

export interface ToolResult { stdout: string; stderr: string; code: number; killed: boolean }

export class ToolMissingError extends Error {
  override readonly name = 'ToolMissingError';
  constructor(readonly tool: string, readonly debianPackage: string) {
    super(`${tool} is not installed (Debian package ${debianPackage})`);
  }
}

export function runTool(cmd: string, args: string[], options: { timeoutMs: number; debianPackage: string; env?: NodeJS.ProcessEnv }): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, {
      maxBuffer: 512 * 1024 * 1024, encoding: 'utf8', timeout: options.timeoutMs, killSignal: 'SIGKILL',
      ...(options.env ? { env: options.env } : {}),
    }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new ToolMissingError(cmd, options.debianPackage));
        return;
      }
      const e = err as (Error & { code?: unknown; killed?: boolean }) | null;
      resolve({ stdout, stderr, code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, killed: Boolean(e?.killed) });
    });
  });
}

// For the CLI's tests: runs `cerebro <argv>` in this process and captures what it prints.
import { Readable, Writable } from 'node:stream';
import { runCli } from '../run-cli.js';

export interface CapturedRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI with `env` (and `stdin` for `--stdin` options); resolves with its exit code and output. */
export async function runCaptured(argv: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<CapturedRun> {
  let out = '';
  let err = '';
  const sink = (write: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, done) {
        write(String(chunk));
        done();
      },
    });
  const code = await runCli(argv, {
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
    env,
    ...(stdin === undefined ? {} : { stdin: Readable.from([stdin]) }),
  });
  return { code, out, err };
}

// `cerebro modelos lista | head`: once the reader has gone, writing to stdout fails with EPIPE. Node ignores SIGPIPE,
// so without this the failed write surfaces as an unhandled 'error' event and a stack trace on stderr. A command
// line tool whose reader left has nothing more to say: it ends quietly, as `ls | head` does.
import type { Writable } from 'node:stream';

/** Ends the process quietly (keeping its exit code) when `stdout`'s reader is gone; other errors are rethrown. */
export function endQuietlyOnBrokenPipe(stdout: Writable, exit: (code: number) => void = process.exit): void {
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

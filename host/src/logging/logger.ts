import { pino, type Logger as PinoLogger } from 'pino';
import { PrettyLines } from './pretty-lines.js';
import { TurnBatchedDestination, asLineSink, type ByteSink, type LogSink } from './turn-batched-destination.js';

/** `json` (one object per line, for collectors) or `pretty` (for a terminal). */
export type LogFormat = 'json' | 'pretty';

/**
 * The root logger. Authorization headers and anything named like a secret are redacted at the source,
 * so a careless `log.info({ req })` still cannot leak a key.
 *
 * Lines go to `destination` (stdout by default, `logDestination`) one batch per event-loop turn: see
 * TurnBatchedDestination for why.
 */
export function createRootLogger(level: string, destination?: LogSink, format: LogFormat = 'json'): PinoLogger {
  const options = {
    level,
    base: { service: 'cerebro' },
    redact: {
      // Explicit paths only: wildcard paths make pino walk every logged object, on every request line.
      paths: [
        'authorization',
        'headers.authorization',
        'req.headers.authorization',
        'token',
        'secret',
        'key',
        'credential',
      ],
      censor: '[oculto]',
    },
  };
  if (level === 'silent') return pino(options);
  const raw = destination ?? logDestination(1);
  const sink =
    format === 'pretty' ? new PrettyLines(asLineSink(raw), !destination && process.stdout.isTTY === true) : raw;
  return pino(options, new TurnBatchedDestination(sink) as never);
}

/**
 * Where log lines go (stdout by default, or a file): pino's asynchronous sonic-boom in `buffer` mode, given each
 * turn's batch already encoded. In its text mode sonic-boom 4 encodes every batch three times (`Buffer.byteLength`
 * on `write`, the bytes for `fs.write`, and `Buffer.from` again after the write only to slice off what was
 * written): together about a twentieth of a small request's CPU in a profile. Flushed at exit as before (pino's
 * exit hook for asynchronous destinations, and TurnBatchedDestination's).
 */
export function logDestination(dest: number | string = 1): ByteSink {
  const stream = pino.destination({ dest, sync: false, contentMode: 'buffer' });
  // sonic-boom's types declare `write(string)` whatever the mode; in `buffer` mode it takes Buffers.
  return Object.assign(stream as unknown as Omit<ByteSink, 'takesBytes'>, { takesBytes: true as const });
}

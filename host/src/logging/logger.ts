import { pino, type Logger as PinoLogger } from 'pino';
import { PrettyLines } from './pretty-lines.js';
import { TurnBatchedDestination, type LineSink } from './turn-batched-destination.js';

/** `json` (one object per line, for collectors) or `pretty` (for a terminal). */
export type LogFormat = 'json' | 'pretty';

/**
 * The root logger. Authorization headers and anything named like a secret are redacted at the source,
 * so a careless `log.info({ req })` still cannot leak a key.
 *
 * Lines go to `destination` (stdout by default, through pino's asynchronous sonic-boom) one batch per event-loop
 * turn: see TurnBatchedDestination for why.
 */
export function createRootLogger(level: string, destination?: LineSink, format: LogFormat = 'json'): PinoLogger {
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
  const raw: LineSink = destination ?? pino.destination({ dest: 1, sync: false });
  const sink = format === 'pretty' ? new PrettyLines(raw, !destination && process.stdout.isTTY === true) : raw;
  return pino(options, new TurnBatchedDestination(sink) as never);
}

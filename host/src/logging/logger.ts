import { pino, type Logger as PinoLogger } from 'pino';
import { TurnBatchedDestination, type LineSink } from './turn-batched-destination.js';

/**
 * The root logger. Authorization headers and anything named like a secret are redacted at the source,
 * so a careless `log.info({ req })` still cannot leak a key.
 *
 * Lines go to `destination` (stdout by default, through pino's asynchronous sonic-boom) one batch per event-loop
 * turn: see TurnBatchedDestination for why.
 */
export function createRootLogger(level: string, destination?: LineSink): PinoLogger {
  const options = {
    level,
    base: { service: 'cerebro' },
    redact: {
      // Explicit paths only: wildcard paths make pino walk every logged object, on every request line.
      paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'token', 'secret', 'key', 'credential'],
      censor: '[oculto]',
    },
  };
  if (level === 'silent') return pino(options);
  const sink = destination ?? pino.destination({ dest: 1, sync: false });
  return pino(options, new TurnBatchedDestination(sink) as never);
}

import { pino, type Logger as PinoLogger } from 'pino';

/**
 * The root logger. Authorization headers and anything named like a secret are redacted at the source,
 * so a careless `log.info({ req })` still cannot leak a key.
 */
export function createRootLogger(level: string, destination?: NodeJS.WritableStream): PinoLogger {
  const options = {
    level,
    base: { service: 'cerebro' },
    redact: {
      // Explicit paths only: wildcard paths make pino walk every logged object, on every request line.
      paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'token', 'secret', 'key', 'credential'],
      censor: '[oculto]',
    },
  };
  return destination ? pino(options, destination as never) : pino(options);
}

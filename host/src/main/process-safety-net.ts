// The last line of defence of `cerebro serve`: an error no code caught. A full disk or a busy database met by some
// background step (a timer, a stream, a plugin's job) is logged with its errno and the service keeps serving:
// nothing it holds in memory is wrong, only a write did not happen. Anything else still ends the process, as Node
// would, but with a fatal log line first: its state can no longer be trusted.
import type { Logger as PinoLogger } from 'pino';
import { FAILURE_WORDS, logStorageError, storageFailureOf } from '../storage/storage-failure.js';

/** What the process does with an error nobody caught (split from the listeners so it can be tested alone). */
export function uncaughtErrorHandler(log: PinoLogger, exit: (code: number) => void): (err: unknown) => void {
  return (err: unknown) => {
    const storage = storageFailureOf(err);
    if (storage) {
      logStorageError(
        log,
        err,
        `${FAILURE_WORDS[storage.kind]} (${storage.errno}) fuera de una petición; el servicio sigue`,
      );
      return;
    }
    log.fatal({ err }, 'error no controlado: el proceso termina');
    log.flush();
    exit(1);
  };
}

/** Installs the handler for uncaught exceptions and unhandled rejections; returns how to remove it. */
export function installProcessSafetyNet(
  log: PinoLogger,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const onError = uncaughtErrorHandler(log, exit);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  return () => {
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
  };
}

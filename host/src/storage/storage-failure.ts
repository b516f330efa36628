// Failures of the disk or the database that are nobody's fault in the request: no space left (ENOSPC, EDQUOT,
// SQLite's SQLITE_FULL), a database held by another writer past the busy timeout (SQLITE_BUSY, SQLITE_LOCKED), and
// a remote originals store that does not answer (ORIGINALS_UNAVAILABLE, see storage/originals/s3/s3-client.ts).
// They answer 507 and 503 with a catalogue code instead of a bare 500, and a background job they hit fails that job
// with a reason instead of ending the process.
import { apiError, type ApiError } from '@cerebro/sdk';
import type { Logger as PinoLogger } from 'pino';

export type StorageFailure = { kind: 'full' | 'busy' | 'unavailable'; errno: string };

/** The code a remote originals store's error carries when the store did not answer or failed on its side (5xx). */
export const ORIGINALS_UNAVAILABLE = 'ORIGINALS_UNAVAILABLE';

/** How the log names each failure. */
export const FAILURE_WORDS: Record<StorageFailure['kind'], string> = {
  full: 'sin espacio en disco',
  busy: 'base de datos ocupada',
  unavailable: 'el almacén de originales no responde',
};

const FULL = new Set(['ENOSPC', 'EDQUOT']);

/** The storage failure behind `err` (or an error in its `cause` chain), or null for any other error. */
export function storageFailureOf(err: unknown): StorageFailure | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    // better-sqlite3 reports SQLite's extended codes (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_LOCKED_SHAREDCACHE`...).
    if (FULL.has(code) || code === 'SQLITE_FULL' || code.startsWith('SQLITE_FULL_'))
      return { kind: 'full', errno: code };
    if (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return { kind: 'busy', errno: code };
    if (code === ORIGINALS_UNAVAILABLE) return { kind: 'unavailable', errno: code };
  }
  return null;
}

/** Seconds a client should wait before retrying a request the database was too busy for. */
export const BUSY_RETRY_AFTER_S = 2;

/**
 * The catalogue answer for a storage failure: 507 `insufficient_storage`, or 503 `database_busy` /
 * `originals_unavailable` with Retry-After.
 */
export function storageApiError(failure: StorageFailure): ApiError {
  if (failure.kind === 'full') return apiError('insufficient_storage');
  const retry = { 'Retry-After': String(BUSY_RETRY_AFTER_S) };
  return apiError(failure.kind === 'busy' ? 'database_busy' : 'originals_unavailable', undefined, retry);
}

/** The reason a document fails with when the disk filled up while it was being indexed. */
export const DISK_FULL_REASON =
  'No quedó espacio en el disco del servidor mientras se indexaba; vuelve a subirlo cuando el operador libere espacio.';

/** One log line for a storage error outside a request: error level for a full disk (naming the errno), warn if busy. */
export function logStorageError(log: PinoLogger, err: unknown, message: string): void {
  const storage = storageFailureOf(err);
  const fields = { err, errno: storage?.errno ?? (err as { code?: unknown } | null)?.code };
  if (storage?.kind === 'busy') log.warn(fields, message);
  else log.error(fields, message);
}

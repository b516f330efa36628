// Reading a document's original for indexing from a store that may be briefly away (an S3-compatible store
// restarting, a network blip between a worker and the store). A job that met such an outage used to fail at once
// with an internal error; the upload had already been accepted, so the owner lost a document to a few seconds of
// outage. The read is retried with growing pauses instead, within the job's deadline and cancellable with it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalOriginal } from '../../storage/port/originals-store.js';
import { storageFailureOf } from '../../storage/storage-failure.js';

/** Pauses between reads of an original whose store did not answer: about two minutes in all, then the job fails. */
export const ORIGINAL_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 15_000, 30_000, 30_000, 30_000];

/**
 * `open(stored)`, tried again after each pause of `delays` while the store does not answer (`originals_unavailable`);
 * any other error, the last attempt's error, or `signal` (cancelled, deadline) ends it at once.
 */
export async function openOriginalPatiently(
  open: (stored: string) => Promise<LocalOriginal>,
  stored: string,
  signal: AbortSignal,
  delays: readonly number[] = ORIGINAL_RETRY_DELAYS_MS,
  onRetry?: (err: unknown, attempt: number) => void,
): Promise<LocalOriginal> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(stored);
    } catch (err) {
      if (storageFailureOf(err)?.kind !== 'unavailable' || attempt >= delays.length) throw err;
      onRetry?.(err, attempt + 1);
      await sleep(delays[attempt], undefined, { signal });
    }
  }
}

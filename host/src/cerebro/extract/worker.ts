// Piscina worker entry: one task prepares one document. Unexpected exceptions propagate to the pool (and the job
// fails as corrupt); expected failures come back as values so their Spanish reason survives the thread boundary.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { MessagePort } from 'node:worker_threads';
import { prepareDocument, type PrepareResult, type PrepareTask } from './prepare.js';

/**
 * A full collection after each document and each window of a long one. Preparing a document makes tens of
 * megabytes of short-lived strings that V8 promotes and then keeps until its old generation reaches a limit it
 * raises as it goes: over a batch of 20 files of 2.5 MB this thread grew by ~200 MB of garbage (npm run bench --
 * upload). A collection costs a few milliseconds on this small heap and bounds the thread at about one window's
 * worth. (`gc` is exposed through a fresh context: the flag only applies to contexts created after it is set.)
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export type WorkerTask = PrepareTask & {
  /** When given, passages are posted here in batches, then `null` once all were sent; the result has none. */
  passagePort?: MessagePort;
};

export default async function prepare({ passagePort, ...task }: WorkerTask): Promise<PrepareResult> {
  try {
    if (!passagePort) return await prepareDocument(task);
    try {
      return await prepareDocument(task, (batch) => passagePort.postMessage(batch), collectGarbage);
    } finally {
      passagePort.postMessage(null);
      passagePort.close();
    }
  } finally {
    collectGarbage();
  }
}

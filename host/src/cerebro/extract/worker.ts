// Piscina worker entry: one task prepares one document. Unexpected exceptions propagate to the pool (and the job
// fails as corrupt); expected failures come back as values so their Spanish reason survives the thread boundary.
import type { MessagePort } from 'node:worker_threads';
import { prepareDocument, type PrepareResult, type PrepareTask } from './prepare.js';

export type WorkerTask = PrepareTask & {
  /** When given, passages are posted here in batches, then `null` once all were sent; the result has none. */
  passagePort?: MessagePort;
};

export default async function prepare({ passagePort, ...task }: WorkerTask): Promise<PrepareResult> {
  if (!passagePort) return prepareDocument(task);
  try {
    return await prepareDocument(task, (batch) => passagePort.postMessage(batch));
  } finally {
    passagePort.postMessage(null);
    passagePort.close();
  }
}

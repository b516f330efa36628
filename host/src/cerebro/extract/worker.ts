// Piscina worker entry: one task prepares one document. Unexpected exceptions propagate to the pool (and the job
// fails as corrupt); expected failures come back as values so their Spanish reason survives the thread boundary.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { MessagePort } from 'node:worker_threads';
import { ChildRegistry } from './child-registry.js';
import { inJob } from './job-scope.js';
import { prepareDocument, type PrepareResult, type PrepareTask } from './prepare.js';

/**
 * A full collection after each document and each window of a long one, once the heap has grown by
 * COLLECT_AFTER_BYTES since the last. Preparing a document makes tens of megabytes of short-lived strings that V8
 * promotes and then keeps until its old generation reaches a limit it raises as it goes: over a batch of 20 files of
 * 2.5 MB this thread grew by ~200 MB of garbage (npm run bench -- upload); collecting bounds it at about one window's
 * worth plus that margin. Not after every document whatever its size: hundreds of small web pages (module fuentes)
 * made a full collection each, more CPU than reading the pages (82 per 400 pages, ~3 s under --trace-gc).
 * (`gc` is exposed through a fresh context: the flag only applies to contexts created after it is set.)
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const COLLECT_AFTER_BYTES = 8 * 1024 * 1024;
let collectedAt = 0;
const collectGarbage = (): void => {
  if (getHeapStatistics().used_heap_size < collectedAt + COLLECT_AFTER_BYTES) return;
  gc();
  collectedAt = getHeapStatistics().used_heap_size;
};

export type WorkerTask = PrepareTask & {
  /** When given, passages are posted here in batches, then `null` once all were sent; the result has none. */
  passagePort?: MessagePort;
  /** The job's ChildRegistry buffer: the pool kills the tools listed there when it terminates this thread. */
  childPids?: SharedArrayBuffer;
  /** The job's temporary folder, which the pool removes after the job whatever happens to this thread. */
  tempRoot?: string;
  /** One Int32 set to 1 before `tempRoot` is made: the pool removes the folder only then (most jobs make none). */
  tempMade?: SharedArrayBuffer;
  /** Several small documents prepared one after another in this one task, each whole; their results in order. */
  batch?: PrepareTask[];
};

export default function prepare(task: WorkerTask): Promise<PrepareResult | PrepareResult[]> {
  const { batch, ...shared } = task;
  if (!batch) return prepareOne(shared);
  return (async () => {
    const results: PrepareResult[] = [];
    for (const one of batch) results.push(await prepareOne({ ...shared, ...one }));
    return results;
  })();
}

function prepareOne({ childPids, tempRoot, tempMade, ...task }: WorkerTask): Promise<PrepareResult> {
  const children = childPids ? new ChildRegistry(childPids) : null;
  const made = tempMade ? new Int32Array(tempMade) : null;
  return inJob(
    {
      timeoutMs: task.timeoutMs ?? 0,
      children,
      ...(tempRoot ? { tempRoot } : {}),
      ...(made ? { onMake: () => Atomics.store(made, 0, 1) } : {}),
    },
    () => prepareTask(task),
  );
}

async function prepareTask({
  passagePort,
  ...task
}: Omit<WorkerTask, 'childPids' | 'tempRoot' | 'tempMade'>): Promise<PrepareResult> {
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

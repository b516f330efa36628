// Runs document preparation in piscina worker threads so that parsing a 25 MB file never blocks request handling.
// Aborting a task (deadline, deletion) terminates its worker thread, which also ends a stuck parser. A terminated
// thread cleans up nothing, so each job gets from here a registry of the external tools it runs (whose process
// groups are killed when the job ends) and a temporary folder (removed when the job ends), aborted or not.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { threadPool } from '../../kernel/thread-pool.js';
import type { PreparedPassage, PrepareResult, PrepareTask } from './prepare.js';
import type { WorkerTask } from './worker.js';
import { ChildRegistry } from './child-registry.js';

/** After an abort, a second sweep for a tool the thread spawned while it was being terminated. */
const LATE_SWEEP_MS = 250;

export interface PreparePool {
  /**
   * Prepares one document. With `onPassages`, passages arrive there in order, in batches, while the worker is still
   * analysing the rest, and the result carries none; the promise settles after the last batch was delivered.
   */
  prepare(
    task: PrepareTask,
    signal?: AbortSignal,
    onPassages?: (batch: PreparedPassage[]) => void,
  ): Promise<PrepareResult>;
  /**
   * Prepares several small documents in one task of one thread (one hand-over instead of one each), each whole:
   * their results in order. Aborting `signal` ends them all.
   */
  prepareMany?(tasks: readonly PrepareTask[], signal?: AbortSignal): Promise<PrepareResult[]>;
  close(): Promise<void>;
}

export interface PreparePoolOptions {
  /** Worker threads (default 1: the machine has 2 cores and the HTTP server needs one). */
  threads?: number;
}

/** Young-generation size of each preparation thread (see below). */
export const PREPARE_YOUNG_GENERATION_MB = 8;

export function createPreparePool(options: PreparePoolOptions = {}): PreparePool {
  const threads = Math.max(1, options.threads ?? 1);
  const pool = threadPool({
    filename: new URL('./worker-entry.cjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
    // Preparing a document makes garbage fast; V8's default young generation (16 MB semi-spaces) kept ~20 MB more
    // resident at the peak of indexing a 25 MB text than 8 MB does, for no measurable loss of speed
    // (npm run bench -- upload). The old generation is left unbounded: a hard cap would fail large documents.
    resourceLimits: { maxYoungGenerationSizeMb: PREPARE_YOUNG_GENERATION_MB },
  });
  const runThread = async (task: WorkerTask, signal?: AbortSignal, transferList?: MessagePort[]) =>
    (await pool.get()).run(task, {
      ...(signal ? { signal } : {}),
      ...(transferList ? { transferList } : {}),
    }) as Promise<PrepareResult | PrepareResult[]>;
  // Every run owns its tools and temporary files until it settles, whether it finished, failed or was aborted.
  const run = async (
    task: WorkerTask,
    signal?: AbortSignal,
    transferList?: MessagePort[],
  ): Promise<PrepareResult | PrepareResult[]> => {
    const children = ChildRegistry.create();
    // Named here, made by the worker only if a tool needs it (job-scope.ts): a folder made and removed for every
    // document was two file-system round trips and an inode per page of a crawl, for the few PDFs that use one.
    const tempRoot = join(tmpdir(), `cerebro-job-${randomUUID()}`);
    // Set by the worker before it makes the folder: a job that made none is not swept (an lstat per document).
    const tempMade = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    try {
      return await runThread(
        { ...task, childPids: children.buffer, tempRoot, tempMade: tempMade.buffer },
        signal,
        transferList,
      );
    } finally {
      children.killAll();
      const removeTemp = () => rm(tempRoot, { recursive: true, force: true });
      if (signal?.aborted) {
        setTimeout(() => {
          children.killAll();
          removeTemp().catch(() => {});
        }, LATE_SWEEP_MS).unref();
      }
      if (Atomics.load(tempMade, 0) === 1) await removeTemp();
    }
  };

  return {
    async prepare(task, signal, onPassages) {
      if (!onPassages) return (await run(task, signal)) as PrepareResult;
      const { port1, port2 } = new MessageChannel();
      let consumerError: unknown;
      // Settles on the worker's end marker, or when the channel closes because the worker thread was terminated.
      const delivered = new Promise<void>((resolve) => {
        port1.on('message', (batch: PreparedPassage[] | null) => {
          if (batch === null) return resolve();
          if (consumerError !== undefined) return;
          try {
            onPassages(batch);
          } catch (err) {
            consumerError = err; // surfaced below: a throw here would be an uncaught exception of the server
          }
        });
        port1.once('close', () => resolve());
      });
      try {
        const result = (await run({ ...task, passagePort: port2 }, signal, [port2])) as PrepareResult;
        await delivered;
        if (consumerError !== undefined) throw consumerError;
        return result;
      } finally {
        port1.close();
      }
    },
    // The thread's task carries only the job's scope; each document of `batch` brings its own fields.
    prepareMany: async (tasks, signal) =>
      tasks.length === 0 ? [] : ((await run({ path: '', name: '', batch: [...tasks] }, signal)) as PrepareResult[]),
    close: () => pool.destroy(),
  };
}

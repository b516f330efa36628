// Runs document preparation in piscina worker threads so that parsing a 25 MB file never blocks request handling.
// Aborting a task (deadline, deletion) terminates its worker thread, which also ends a stuck parser.
import { Piscina } from 'piscina';
import type { PrepareResult, PrepareTask } from './prepare.js';

export interface PreparePool {
  prepare(task: PrepareTask, signal?: AbortSignal): Promise<PrepareResult>;
  close(): Promise<void>;
}

export interface PreparePoolOptions {
  /** Worker threads (default 1: the machine has 2 cores and the HTTP server needs one). */
  threads?: number;
}

export function createPreparePool(options: PreparePoolOptions = {}): PreparePool {
  const threads = Math.max(1, options.threads ?? 1);
  const pool = new Piscina({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
  });
  return {
    prepare: (task, signal) => pool.run(task, signal ? { signal } : {}) as Promise<PrepareResult>,
    close: () => pool.destroy(),
  };
}

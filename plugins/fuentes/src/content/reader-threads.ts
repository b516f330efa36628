import { type ResourceLimits, Worker } from 'node:worker_threads';

/** What a reading thread answers for one task (see `page-worker.ts`). */
export type ThreadReply<R> = { result: R } | { error: string };

interface Thread {
  worker: Worker;
  /** The task it works on: settled by its reply, its exit or an abort. */
  busy: { resolve: (value: unknown) => void; reject: (error: unknown) => void } | null;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * The reading threads: one task at a time per thread, handed over with `postMessage` (its bytes transferred, not
 * copied). The caller bounds the tasks in flight (`ReadingGate`, at most `max`), so a task never queues here: it
 * takes an idle thread or starts one. An abort ends the task's thread (a page being parsed cannot be interrupted
 * otherwise); a thread idle for `idleTimeoutMs` ends too. Instead of piscina: its bookkeeping per task (queues,
 * abort listeners, async resources, histograms) cost a crawl's main thread more than the hand-over itself
 * (perf on `npm run bench -- fuentes`), and what it adds over this (queues, several tasks per thread, statistics)
 * the reader does not use.
 */
export class ReaderThreads {
  private readonly idle: Thread[] = [];
  private readonly all = new Set<Thread>();
  private closed = false;

  constructor(
    private readonly filename: URL,
    private readonly max: number,
    private readonly resourceLimits: ResourceLimits,
    private readonly idleTimeoutMs = 30_000,
  ) {}

  /** Threads running now (for tests). */
  get size(): number {
    return this.all.size;
  }

  /** Runs one task on a thread; rejects with the signal's reason on abort, or with the thread's error. */
  run<R>(task: unknown, transfer: ArrayBuffer[], signal: AbortSignal): Promise<R> {
    if (this.closed) return Promise.reject(new Error('page reader closed'));
    if (signal.aborted) return Promise.reject(signal.reason);
    const thread = this.idle.pop() ?? this.start();
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
    thread.worker.ref();
    return new Promise<R>((resolve, reject) => {
      const onAbort = () => {
        thread.busy = null;
        this.end(thread);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      thread.busy = {
        resolve: (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value as R);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      thread.worker.postMessage(task, transfer);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((thread) => this.end(thread)));
  }

  private start(): Thread {
    if (this.all.size >= this.max) throw new Error(`more than ${this.max} bodies read at once`);
    const worker = new Worker(this.filename, { resourceLimits: this.resourceLimits });
    const thread: Thread = { worker, busy: null, idleTimer: null };
    this.all.add(thread);
    worker.on('message', (reply: ThreadReply<unknown>) => {
      const busy = thread.busy;
      thread.busy = null;
      this.rest(thread);
      if (!busy) return;
      if ('error' in reply) busy.reject(new Error(reply.error));
      else busy.resolve(reply.result);
    });
    // A thread that fails (out of memory under its limits) or ends fails its task; the next task starts another.
    const lost = (error: Error) => {
      this.forget(thread);
      const busy = thread.busy;
      thread.busy = null;
      busy?.reject(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`reading thread ended (${code})`)));
    return thread;
  }

  /** Back to the idle threads: unreferenced (an idle thread keeps no process alive) and ended after a while. */
  private rest(thread: Thread): void {
    if (!this.all.has(thread)) return;
    thread.worker.unref();
    this.idle.push(thread);
    thread.idleTimer = setTimeout(() => void this.end(thread), this.idleTimeoutMs);
    thread.idleTimer.unref();
  }

  private forget(thread: Thread): void {
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
    this.all.delete(thread);
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
  }

  private async end(thread: Thread): Promise<void> {
    this.forget(thread);
    await thread.worker.terminate();
  }
}

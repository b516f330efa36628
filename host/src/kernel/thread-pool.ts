import type { Piscina } from 'piscina';

type PoolOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

export interface ThreadPool {
  /** The pool, made (and piscina loaded) the first time it is asked for. */
  get(): Promise<Piscina>;
  /** Destroys the pool if it was made; a later `get` rejects, as a destroyed piscina pool's tasks do. */
  destroy(): Promise<void>;
}

/**
 * A pool's `filename` is a CommonJS entry (`*-entry.cts`) that imports the ES module worker asynchronously, never the
 * worker itself: piscina loads its handler with `require()` first, which Node 20 (≥ 20.19) does for an ES module
 * with require(esm), and a thread terminated while that is instantiating the module aborts the whole process
 * (`FATAL ERROR: v8::Module::IsGraphAsync`). An aborted task terminates its thread and piscina starts another, so an
 * abort or a shutdown during that start killed the server (CI, session 17: crawl-concurrency.test.js; reproduced by
 * aborting tasks of a pool and destroying it in a loop: an abort on the first run, none in twice 200 rounds through
 * an entry). An asynchronous import that a termination interrupts ends cleanly. Node 24 is not affected.
 *
 * A piscina pool made at its first task instead of at start. Loading piscina (worker_threads, its histograms and
 * their built-ins) took ~10 ms of CPU of every start of the server, which makes its pools (indexing, search) before
 * any document or question needs a thread.
 */
export function threadPool(options: PoolOptions): ThreadPool {
  if (!String(options.filename).endsWith('-entry.cjs'))
    throw new Error(
      `thread pool ${options.filename}: give the worker's CommonJS entry (*-entry.cjs), see thread-pool.ts`,
    );
  let made: Promise<Piscina> | null = null;
  let destroyed = false;
  return {
    get() {
      if (destroyed) return Promise.reject(new Error('thread pool destroyed'));
      return (made ??= import('piscina').then(({ Piscina }) => new Piscina(options)));
    },
    async destroy() {
      destroyed = true;
      if (made) await (await made).destroy();
    },
  };
}

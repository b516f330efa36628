import type { Piscina } from 'piscina';

type PoolOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

export interface ThreadPool {
  /** The pool, made (and piscina loaded) the first time it is asked for. */
  get(): Promise<Piscina>;
  /** Destroys the pool if it was made; a later `get` rejects, as a destroyed piscina pool's tasks do. */
  destroy(): Promise<void>;
}

/**
 * A piscina pool made at its first task instead of at start. Loading piscina (worker_threads, its histograms and
 * their built-ins) took ~10 ms of CPU of every start of the server, which makes its pools (indexing, search) before
 * any document or question needs a thread.
 */
export function threadPool(options: PoolOptions): ThreadPool {
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

// An AsyncLocalStorage that is switched off whenever no `run` of it is in progress. On Node 20 an enabled
// AsyncLocalStorage keeps the process's promise hooks on, which makes every `await` of the thread ~2.5× dearer (80–120
// against 330–360 ns in a loop of awaits), requests and crawls included, even when no code reads the store. The
// storages here (the transaction a PostgreSQL statement joins, a plugin's open transaction) are only read inside a
// transaction, so between transactions they can be off. (Node 22+ builds AsyncLocalStorage on async context frames,
// without promise hooks: there switching off changes nothing.)
import { AsyncLocalStorage } from 'node:async_hooks';

export class ScopedAsyncStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  /** Runs in progress: several overlap when transactions of a pool run at once. */
  private running = 0;

  /** The store of the `run` this code was called from, if one is in progress. */
  getStore(): T | undefined {
    return this.storage.getStore();
  }

  /**
   * Runs `work` with `store` as the store of everything it calls, awaits included. When the last run in progress
   * settles, the storage is switched off (the next `run` switches it on again); what a finished run left pending and
   * runs later may then read no store, as it could not rightly join a transaction that has ended.
   */
  async run<R>(store: T, work: () => Promise<R>): Promise<R> {
    this.running += 1;
    try {
      return await this.storage.run(store, work);
    } finally {
      this.running -= 1;
      if (this.running === 0) this.storage.disable();
    }
  }
}

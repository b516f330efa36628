/** A FIFO counting semaphore: requests get a worker slot in arrival order; a waiting request can be aborted. */
export class Slots {
  private free: number;
  private readonly waiting: Array<{ grant: () => void; fail: (err: unknown) => void }> = [];

  constructor(size: number) {
    this.free = size;
  }

  get queued(): number {
    return this.waiting.length;
  }

  acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.free++;
    };
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: (err: unknown): void => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Fails every waiting request (used when the engine closes). */
  rejectAll(err: unknown): void {
    for (const entry of this.waiting.splice(0)) entry.fail(err);
  }
}

// Background work shared by tenants (crawls, fichas, transcriptions) must not be first come, first served: one
// space queueing a hundred jobs would make every other space wait for all of them. The host's indexing queue takes
// turns between spaces in SQL (it survives restarts); this is the same rule for a plugin's work held in memory.

interface Waiter {
  key: string;
  arrival: number;
  grant: () => void;
  fail: (err: unknown) => void;
}

/** Served-turn records kept for keys with nothing waiting, past which those are forgotten (see `forgetIdle`). */
const MAX_IDLE_RECORDS = 10_000;

/**
 * A counting semaphore whose waiting requests take turns by key (a space id): when a slot frees, it goes to the
 * key served longest ago (a key never served first; ties: the key whose request waited longest), and within a key
 * to its oldest request. So a key with a backlog delays another key's next request by the work already holding
 * slots, never by its backlog. A waiting request can be aborted with its signal.
 */
export class FairSlots {
  private free: number;
  private readonly lines = new Map<string, Waiter[]>();
  /** Per key, the sequence number of the last slot it was given. */
  private readonly served = new Map<string, number>();
  private turns = 0;
  private arrivals = 0;
  private waitingCount = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('FairSlots needs at least one slot.');
    this.free = size;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waitingCount;
  }

  /** Slots held. */
  get busy(): number {
    return this.size - this.free;
  }

  /** Requests of `key` waiting for a slot. */
  queuedFor(key: string): number {
    return this.lines.get(key)?.length ?? 0;
  }

  /**
   * Resolves with a release function (calling it more than once releases once) when `key` gets a slot; rejects
   * with the signal's reason if it is aborted first.
   */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.handOn();
    };
    if (this.free > 0) {
      this.free--;
      this.markServed(key);
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        key,
        arrival: this.arrivals++,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      const onAbort = (): void => {
        this.remove(waiter);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const line = this.lines.get(key);
      if (line) line.push(waiter);
      else this.lines.set(key, [waiter]);
      this.waitingCount++;
    });
  }

  /** Fails every waiting request with `err` (when the work's owner closes). */
  rejectAll(err: unknown): void {
    const all = [...this.lines.values()].flat();
    this.lines.clear();
    this.waitingCount = 0;
    for (const waiter of all) waiter.fail(err);
  }

  /** A freed slot goes to the next key in turn, or back to the free count when nobody waits. */
  private handOn(): void {
    let next: Waiter | undefined;
    let nextTurn = Infinity;
    for (const [key, line] of this.lines) {
      const turn = this.served.get(key) ?? 0;
      if (turn < nextTurn || (turn === nextTurn && line[0]!.arrival < next!.arrival)) {
        next = line[0];
        nextTurn = turn;
      }
    }
    if (!next) {
      this.free++;
      return;
    }
    this.remove(next);
    this.markServed(next.key);
    next.grant();
  }

  private remove(waiter: Waiter): void {
    const line = this.lines.get(waiter.key);
    const i = line?.indexOf(waiter) ?? -1;
    if (!line || i < 0) return;
    line.splice(i, 1);
    this.waitingCount--;
    if (line.length === 0) this.lines.delete(waiter.key);
  }

  private markServed(key: string): void {
    this.served.delete(key); // re-inserted last: the map stays in turn order, oldest first
    this.served.set(key, ++this.turns);
    if (this.served.size > MAX_IDLE_RECORDS + this.lines.size) this.forgetIdle();
  }

  /**
   * Drops the records of keys with nothing waiting, oldest first, down to the bound. A forgotten key counts as never
   * served: it was served longer ago than any key still remembered, so its place in the rotation barely changes.
   */
  private forgetIdle(): void {
    for (const key of this.served.keys()) {
      if (this.served.size <= MAX_IDLE_RECORDS / 2 + this.lines.size) return;
      if (!this.lines.has(key)) this.served.delete(key);
    }
  }
}

/** How long the reading threads may finish nothing while a body waits before one more thread is let in. */
export const GROW_AFTER_MS = 1000;
/** How long after the last such stall the pool goes back to one body at a time. */
export const SHRINK_AFTER_MS = 30_000;

interface Waiter {
  admit: () => void;
}

/**
 * How many bodies the reading pool works on at once: one at first, one more (up to `max`) each time the admitted
 * ones have finished nothing for `growAfterMs` while others wait, back to one after `shrinkAfterMs` without such a
 * stall. Why not `max` from the start: every reading thread compiles linkedom and Readability anew (V8 does not
 * share optimised code between threads), and the small pages most sites are made of take one thread well under a
 * millisecond each, so a second thread started for them costs the crawl more CPU than it saves on a 2-core machine
 * (`npm run bench -- fuentes`); a large page (about 3 s per MB) holding the thread is what a second thread is for.
 */
export class ReadingGate {
  private admitted = 0;
  private limit = 1;
  private readonly waiting: Waiter[] = [];
  /** When a body was last finished, or the gate last got busy or grew: the stall is counted from it. */
  private lastProgress = 0;
  private lastStall = -Infinity;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly max: number,
    private readonly growAfterMs = GROW_AFTER_MS,
    private readonly shrinkAfterMs = SHRINK_AFTER_MS,
  ) {}

  /** Bodies admitted at once now (for tests and metrics). */
  get width(): number {
    return this.limit;
  }

  /**
   * Waits for a turn; once it resolves the caller must call `leave` when its body is done, whatever the outcome. A
   * cancel ends the wait at once (rejecting with the signal's reason).
   */
  enter(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const now = Date.now();
    if (this.limit > 1 && now - this.lastStall > this.shrinkAfterMs) this.limit = 1;
    if (this.admitted === 0) this.lastProgress = now;
    if (this.admitted < this.limit && this.waiting.length === 0) {
      this.admitted++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      const waiter: Waiter = {
        admit: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.watch();
    });
  }

  leave(): void {
    this.admitted--;
    this.lastProgress = Date.now();
    this.admitWaiting();
  }

  private admitWaiting(): void {
    while (this.admitted < this.limit && this.waiting.length > 0) {
      this.admitted++;
      this.waiting.shift()!.admit();
    }
    if (this.waiting.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /** Checks for a stall while bodies wait: due `growAfterMs` after the last progress. */
  private watch(): void {
    if (this.timer || this.limit >= this.max) return;
    const due = Math.max(0, this.lastProgress + this.growAfterMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.waiting.length === 0) return;
      const now = Date.now();
      if (now - this.lastProgress >= this.growAfterMs) {
        this.limit++;
        this.lastStall = now;
        this.lastProgress = now;
        this.admitWaiting();
      }
      if (this.waiting.length > 0) this.watch();
    }, due);
  }
}

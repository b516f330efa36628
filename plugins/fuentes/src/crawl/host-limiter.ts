/** Waits `ms`, or rejects at once when `signal` aborts (a cancelled run must not sit out a pause). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

interface HostState {
  /** Requests holding a slot. */
  active: number;
  /** When the host may next be asked (ms since the epoch), as reserved by the last request granted. */
  next: number;
  /** When the last request granted actually went out. */
  lastStart: number;
  /** Requests waiting for a slot, first come first served. */
  waiting: (() => void)[];
}

/** Gives back a slot taken with `HostLimiter.acquire` (calling it again does nothing). */
export type Release = () => void;

/**
 * Politeness per host, shared by every run of the process, so two sources crawling one site share its budget
 * instead of doubling it: at most `concurrency` requests to one host at a time, and their starts at least the pause
 * apart (`pausa_ms`, or a longer robots.txt Crawl-delay). Other hosts never wait for this one.
 */
export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();

  constructor(readonly concurrency: number) {
    if (!(concurrency >= 1)) throw new Error('La concurrencia por host debe ser al menos 1.');
  }

  /**
   * Waits for a slot on the URL's host, then for its turn in the host's pace; the caller sends its request and then
   * releases the slot. A cancel ends either wait at once (rejecting with the signal's reason) and frees the slot.
   */
  async acquire(url: string, pauseMs: number, signal: AbortSignal): Promise<Release> {
    const host = new URL(url).host;
    const state = this.state(host);
    await this.slot(state, signal);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release(host, state);
    };
    try {
      const now = Date.now();
      const at = Math.max(now, state.next);
      // Reserved before sleeping: the next request granted waits after this one, not at the same moment.
      state.next = at + pauseMs;
      await sleep(at - now, signal);
      // A timer that fired late (a busy process) must not squeeze the next gap: the pause also holds from the
      // previous request's actual start.
      for (let wait = state.lastStart + pauseMs - Date.now(); wait > 0; wait = state.lastStart + pauseMs - Date.now())
        await sleep(wait, signal);
      state.lastStart = Date.now();
      state.next = Math.max(state.next, state.lastStart + pauseMs);
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  /** Requests holding a slot on a host (`host` as in a URL: name and port). */
  inFlight(host: string): number {
    return this.hosts.get(host)?.active ?? 0;
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      if (this.hosts.size >= 1000) this.sweep();
      state = { active: 0, next: 0, lastStart: 0, waiting: [] };
      this.hosts.set(host, state);
    }
    return state;
  }

  private slot(state: HostState, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (state.active < this.concurrency && state.waiting.length === 0) {
      state.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        state.active++;
        resolve();
      };
      const onAbort = () => {
        const at = state.waiting.indexOf(grant);
        if (at >= 0) state.waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      state.waiting.push(grant);
    });
  }

  private release(host: string, state: HostState): void {
    state.active--;
    const next = state.waiting.shift();
    if (next) return next();
    // An idle host whose pace has passed holds nothing worth keeping: the map stays as small as the hosts in use.
    if (state.active === 0 && state.next <= Date.now()) this.hosts.delete(host);
  }

  /** Forgets idle hosts whose pause has passed (those released while a pause was still pending). */
  private sweep(): void {
    const now = Date.now();
    for (const [host, state] of this.hosts)
      if (state.active === 0 && state.waiting.length === 0 && state.next <= now) this.hosts.delete(host);
  }
}

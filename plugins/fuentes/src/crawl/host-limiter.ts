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

/** The turn one request took in its host's pace: the host is not asked again before `until` (ms since the epoch). */
interface Reservation {
  until: number;
  /** Gives the turn back (its run was cancelled): later requests no longer wait for it. */
  drop: () => void;
}

interface HostState {
  /** Requests holding a slot. */
  active: number;
  /**
   * Turns taken and not yet passed. Kept one by one, not as a single "next" time, so that a cancelled run gives
   * back its turns: otherwise the pauses it had reserved went on delaying every other run on the host.
   */
  reservations: Set<Reservation>;
  /** When the last request granted actually went out, and the pause it asked for after it. */
  lastStart: number;
  lastPause: number;
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
  /** The turns each run's signal holds, given back together when it aborts. */
  private readonly bySignal = new WeakMap<AbortSignal, Set<Reservation>>();
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
    const now = Date.now();
    const at = Math.max(now, this.paceEnd(state, now));
    // Reserved before sleeping: the next request granted waits after this one, not at the same moment.
    const reservation = this.reserve(state, at + pauseMs, signal);
    try {
      await sleep(at - now, signal);
      // A timer that fired late (a busy process) must not squeeze the next gap: the pause also holds from the
      // previous request's actual start.
      for (let wait = state.lastStart + pauseMs - Date.now(); wait > 0; wait = state.lastStart + pauseMs - Date.now())
        await sleep(wait, signal);
      state.lastStart = Date.now();
      state.lastPause = pauseMs;
      reservation.until = Math.max(reservation.until, state.lastStart + pauseMs);
    } catch (err) {
      reservation.drop();
      release();
      throw err;
    }
    return release;
  }

  /** Requests holding a slot on a host (`host` as in a URL: name and port). */
  inFlight(host: string): number {
    return this.hosts.get(host)?.active ?? 0;
  }

  /**
   * Takes a turn until `until`, given back if `signal` aborts, before or after the request went out: a cancelled
   * run leaves the host's pace at its last real request, which the loop in `acquire` spaces by the next caller's
   * own pause.
   */
  private reserve(state: HostState, until: number, signal: AbortSignal): Reservation {
    const reservation: Reservation = {
      until,
      drop: () => {
        state.reservations.delete(reservation);
        this.bySignal.get(signal)?.delete(reservation);
      },
    };
    // One listener per run's signal, not one per turn: a run over many hosts holds many turns at once, and an
    // EventTarget with more than 10 listeners makes node warn of a leak.
    let held = this.bySignal.get(signal);
    if (!held) {
      const turns = new Set<Reservation>();
      held = turns;
      this.bySignal.set(signal, turns);
      signal.addEventListener(
        'abort',
        () => {
          for (const turn of [...turns]) turn.drop();
        },
        { once: true },
      );
    }
    held.add(reservation);
    state.reservations.add(reservation);
    return reservation;
  }

  /** When the last turn still reserved ends (0 when none); turns already passed are let go. */
  private paceEnd(state: HostState, now: number): number {
    let end = 0;
    for (const reservation of state.reservations) {
      if (reservation.until <= now) reservation.drop();
      else end = Math.max(end, reservation.until);
    }
    return end;
  }

  /** Whether a host holds nothing worth keeping: no request, no turn to come, and its last pause over. */
  private idle(state: HostState, now: number): boolean {
    return (
      state.active === 0 &&
      state.waiting.length === 0 &&
      this.paceEnd(state, now) === 0 &&
      state.lastStart + state.lastPause <= now
    );
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      if (this.hosts.size >= 1000) this.sweep();
      state = { active: 0, reservations: new Set(), lastStart: 0, lastPause: 0, waiting: [] };
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
    if (this.idle(state, Date.now())) this.hosts.delete(host);
  }

  /** Forgets idle hosts whose pause has passed (those released while a pause was still pending). */
  private sweep(): void {
    const now = Date.now();
    for (const [host, state] of this.hosts) if (this.idle(state, now)) this.hosts.delete(host);
  }
}

import type { LimitWindowsRepository, WindowHit } from '../storage/port/limit-windows-repository.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/**
 * Where the limiter counts its windows. `hit` answers synchronously when it can (from memory), so a process alone on
 * its database adds no await to the request path; otherwise it returns the repository's promise.
 */
export interface WindowCounter {
  /** True when a hit is stored at once (shared windows): its call must not be added again at the next flush. */
  readonly storesHits: boolean;
  /** Counts one request if the window is below `limit` (see `LimitWindowsRepository.hit`). */
  hit(bucket: string, windowStart: number, windowMs: number, limit: number): WindowHit | Promise<WindowHit>;
  /** A call of a bucket without a limit right now, so the window is right if a limit is set later in it. */
  note(bucket: string, windowStart: number): void;
  /** Forgets windows that ended before `now`. */
  forgetExpired(now: number): Promise<void>;
}

/**
 * Counted in the shared store, so every process sharing it sees the same count: one atomic write per limited
 * request, for processes that share the database (`--rol api|worker`).
 */
export class SharedWindowCounter implements WindowCounter {
  readonly storesHits = true;

  constructor(private readonly repo: LimitWindowsRepository) {}

  hit(bucket: string, windowStart: number, windowMs: number, limit: number): Promise<WindowHit> {
    return this.repo.hit(bucket, windowStart, windowMs, limit);
  }

  note(): void {
    // Calls without a limit reach the store at the next flush (see RequestWindowLimiter).
  }

  forgetExpired(now: number): Promise<void> {
    return this.repo.forgetExpired(now);
  }
}

interface MemoryWindow {
  start: number;
  end: number;
  calls: number;
}

/**
 * Counted in this process's memory, for a process that is alone on its database (`--rol todo`, the default): no
 * write per request. A day's window starts from what is stored (read once per bucket and day, the only time a hit
 * waits) and the limiter writes its calls at each flush; minute windows start empty, so a restart forgives at most
 * one minute.
 */
export class MemoryWindowCounter implements WindowCounter {
  readonly storesHits = false;
  private readonly windows = new Map<string, MemoryWindow>();
  private readonly loading = new Map<string, Promise<void>>();

  constructor(
    private readonly repo: LimitWindowsRepository,
    /** Calls of a window counted but not yet written (they are in neither the store nor a loaded window). */
    private readonly unwritten: (bucket: string, windowStart: number) => number,
  ) {}

  hit(bucket: string, windowStart: number, windowMs: number, limit: number): WindowHit | Promise<WindowHit> {
    const window = this.windows.get(bucket);
    if (window?.start === windowStart) return take(window, limit);
    if (windowMs < DAY_MS) {
      const fresh = { start: windowStart, end: windowStart + windowMs, calls: 0 };
      this.windows.set(bucket, fresh);
      return take(fresh, limit);
    }
    return this.load(bucket, windowStart, windowMs).then(() => this.hit(bucket, windowStart, windowMs, limit));
  }

  note(bucket: string, windowStart: number): void {
    const window = this.windows.get(bucket);
    if (window?.start === windowStart) window.calls++;
  }

  async forgetExpired(now: number): Promise<void> {
    for (const [bucket, window] of this.windows) if (window.end <= now) this.windows.delete(bucket);
    // The day windows this process writes at its flushes end too: the store forgets them as well.
    await this.repo.forgetExpired(now);
  }

  /** Reads a stored window once, however many requests wait for it meanwhile. */
  private load(bucket: string, windowStart: number, windowMs: number): Promise<void> {
    const id = `${bucket}@${windowStart}`;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.repo.count(bucket, windowStart).then(
        (stored) => {
          this.loading.delete(id);
          if (this.windows.get(bucket)?.start !== windowStart)
            this.windows.set(bucket, {
              start: windowStart,
              end: windowStart + windowMs,
              calls: stored + this.unwritten(bucket, windowStart),
            });
        },
        (err: unknown) => {
          this.loading.delete(id);
          throw err;
        },
      );
      this.loading.set(id, pending);
    }
    return pending;
  }
}

function take(window: MemoryWindow, limit: number): WindowHit {
  if (limit <= 0 || window.calls >= limit) return { count: window.calls, allowed: false };
  return { count: ++window.calls, allowed: true };
}

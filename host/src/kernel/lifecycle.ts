import { injectable } from 'tsyringe';
import { apiError } from '@cerebro/sdk';
import type { Lifecycle, LifecycleState } from './kernel-services.js';

/** The process's `Lifecycle`: a state and a counter, with the waiters of a drain. */
@injectable()
export class HostLifecycle implements Lifecycle {
  private state: LifecycleState = 'starting';
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  get current(): LifecycleState {
    return this.state;
  }
  get requestsInFlight(): number {
    return this.inFlight;
  }

  markReady(): void {
    this.state = 'ready';
  }

  /** Called when a request enters the pipeline; throws 503 unless ready. */
  enter(): void {
    if (this.state !== 'ready') throw apiError('not_ready', undefined, { 'Retry-After': '5' });
    this.inFlight++;
  }

  leave(): void {
    this.inFlight--;
    // Checked before touching the array: in normal operation nobody waits, and this runs on every request.
    if (this.inFlight === 0 && this.idleWaiters.length > 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  /** Stops accepting and resolves when no request is in flight, or after `graceMs` (returns false then). */
  drain(graceMs: number): Promise<boolean> {
    this.state = 'stopping';
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  markStopped(): void {
    this.state = 'stopped';
  }
}

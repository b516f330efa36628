// The kernel's service interfaces, which the host's tokens are typed by: whoever injects them depends on these
// shapes, not on the classes that implement them.

export type LifecycleState = 'starting' | 'ready' | 'stopping' | 'stopped';

/**
 * Readiness and requests in flight. New requests are refused with 503 while starting and stopping; shutdown
 * waits for the ones already running.
 */
export interface Lifecycle {
  readonly current: LifecycleState;
  readonly requestsInFlight: number;
  markReady(): void;
  /** Called when a request enters the pipeline; throws 503 unless ready. */
  enter(): void;
  leave(): void;
  /** Stops accepting and resolves when no request is in flight, or after `graceMs` (returns false then). */
  drain(graceMs: number): Promise<boolean>;
  markStopped(): void;
}

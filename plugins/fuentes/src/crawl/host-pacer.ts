/** Waits `ms`, or rejects at once when `signal` aborts (a cancelled run must not sit out a pause). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason); };
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Keeps a minimum pause between two requests to the same host (politeness). One pacer serves every run of the
 * process, so two sources crawling one site share its pace instead of doubling it.
 */
export class HostPacer {
  /** When each host may next be asked (ms since the epoch), as reserved by the last request. */
  private readonly next = new Map<string, number>();

  async wait(url: string, pauseMs: number, signal: AbortSignal): Promise<void> {
    const host = new URL(url).host;
    const now = Date.now();
    const at = Math.max(now, this.next.get(host) ?? now);
    // Reserved before sleeping: a concurrent run waits after this one, not at the same moment.
    this.next.set(host, at + pauseMs);
    await sleep(at - now, signal);
    if (this.next.size > 10_000) for (const [h, t] of this.next) if (t < now) this.next.delete(h);
  }
}

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

/** Keeps a minimum pause between two requests to the same host (politeness). */
export class HostPacer {
  private readonly last = new Map<string, number>();

  constructor(private readonly pauseFor: (host: string) => number) {}

  async wait(url: string, signal: AbortSignal): Promise<void> {
    const host = new URL(url).host;
    const previous = this.last.get(host);
    if (previous !== undefined) await sleep(previous + this.pauseFor(host) - Date.now(), signal);
    this.last.set(host, Date.now());
  }
}

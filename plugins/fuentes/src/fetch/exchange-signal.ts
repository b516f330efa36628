import type { Readable } from 'node:stream';

/**
 * What ends one exchange with a site: the caller's cancel or the exchange's time limit, whichever comes first. One
 * AbortController and one timer, released once the exchange is over and the bodies it did not read are drained:
 * `AbortSignal.timeout` and `AbortSignal.any` for every request were about a twentieth of a crawl's main-thread time
 * (perf on `npm run bench -- fuentes`).
 */
export class ExchangeSignal {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCancel = () => this.controller.abort(this.caller?.reason);
  /** Whether the time limit ended it. */
  timedOut = false;
  /** The exchange itself and the bodies being drained: the timer and the listener go when none is left. */
  private open = 1;

  constructor(
    private readonly caller: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, timeoutMs);
    // As AbortSignal.timeout's: the limit alone does not keep the process alive.
    this.timer.unref();
    if (caller?.aborted) this.onCancel();
    else caller?.addEventListener('abort', this.onCancel, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Reads a body nobody wants to its end (a redirect's, an error's): a cancel or the time limit still cut it. */
  drain(body: Readable): void {
    this.open++;
    body.once('close', () => this.release());
    body.resume();
  }

  /** The exchange has answered. */
  end(): void {
    this.release();
  }

  private release(): void {
    if (--this.open > 0) return;
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCancel);
  }
}

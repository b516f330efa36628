import type { ServerResponse } from 'node:http';

/**
 * A server-sent event stream: named events with JSON data, a comment heartbeat so proxies and clients keep the
 * connection open during long answers, and headers that stop proxies from buffering (`X-Accel-Buffering: no`).
 */
export class SseStream {
  private heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    headers: Record<string, string> = {},
    heartbeatMs = 15_000,
  ) {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    res.flushHeaders();
    this.heartbeat = setInterval(() => this.comment('ping'), heartbeatMs);
    this.heartbeat.unref();
    res.on('close', () => this.stop());
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  send(event: string, data: unknown): void {
    if (this.isClosed) return;
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** An unnamed event (`data:` only), as OpenAI's streams send them; a string is written as it is (`[DONE]`). */
  data(value: unknown): void {
    if (this.isClosed) return;
    this.res.write(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);
  }

  comment(text: string): void {
    if (!this.isClosed) this.res.write(`: ${text}\n\n`);
  }

  end(): void {
    this.stop();
    if (!this.res.writableEnded) this.res.end();
  }

  private stop(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
  }
}

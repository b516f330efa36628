import { prettyFactory } from 'pino-pretty';
import type { LineSink } from './turn-batched-destination.js';

/**
 * `CEREBRO_LOG_FORMAT=pretty`: the same JSON lines, rewritten for a person at a terminal by pino-pretty (time,
 * level, message, then the fields). It formats in this thread, in the sink the batcher writes to, rather than in
 * pino's transport worker: a terminal session does not need the throughput, and shutdown keeps flushing the same way.
 */
export class PrettyLines implements LineSink {
  private readonly prettify: (line: string) => string;

  constructor(
    private readonly sink: LineSink,
    colorize: boolean,
  ) {
    this.prettify = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
  }

  write(chunk: string): unknown {
    const lines = chunk.split('\n').filter((l) => l.length > 0);
    return this.sink.write(lines.map((l) => this.prettify(l)).join(''));
  }

  flush(cb?: (err?: Error | null) => void): void {
    if (this.sink.flush) this.sink.flush(cb);
    else cb?.();
  }

  flushSync(): void {
    this.sink.flushSync?.();
  }
}

/** What the batcher writes to: a pino destination (sonic-boom) or any writable that takes strings. */
export interface LineSink {
  write(chunk: string): unknown;
  flush?(cb?: (err?: Error | null) => void): void;
  flushSync?(): void;
}

/**
 * A sink that takes each batch as bytes, encoded once by the batcher (`logDestination`: sonic-boom in `buffer`
 * mode). `takesBytes` tells the batcher which kind it writes to.
 */
export interface ByteSink {
  readonly takesBytes: true;
  write(chunk: Buffer): unknown;
  flush?(cb?: (err?: Error | null) => void): void;
  flushSync?(): void;
}

/** A sink of either kind. */
export type LogSink = LineSink | ByteSink;

const takesBytes = (sink: LogSink): sink is ByteSink => (sink as Partial<ByteSink>).takesBytes === true;

/** A byte sink seen as a line sink (what pretty printing writes to): each chunk encoded on its way. */
export function asLineSink(sink: LogSink): LineSink {
  if (!takesBytes(sink)) return sink;
  return {
    write: (chunk: string) => sink.write(Buffer.from(chunk)),
    flush: sink.flush && ((cb) => sink.flush!(cb)),
    flushSync: sink.flushSync && (() => sink.flushSync!()),
  };
}

/**
 * A pino destination that collects the lines of one event-loop turn and hands them to the real destination as
 * one string when the turn ends.
 *
 * Why: every request writes one access line. sonic-boom, pino's destination, measures the whole pending buffer
 * on each write (`Buffer.byteLength` of everything not yet flushed), so a busy turn costs quadratically in the
 * number of lines, and its cons strings are flattened again and again (a fifth of the CPU of a small request in
 * a profile). One write per turn keeps sonic-boom's strengths (asynchronous writes, EAGAIN retries on pipes,
 * a synchronous flush at exit) and removes that cost. Lines keep their order; a turn that writes a great deal is
 * flushed early, so the batch stays bounded.
 *
 * A hard crash (a signal that kills the process) loses at most the current turn's lines, as sonic-boom's own
 * asynchronous mode loses what it has not written yet. A normal exit, including one after an uncaught exception,
 * writes everything: see `flushAllOnExit`.
 */
export class TurnBatchedDestination {
  private lines: string[] = [];
  private pendingChars = 0;
  private scheduled = false;
  private readonly flushAtTurnEnd = () => {
    this.scheduled = false;
    this.drain();
  };

  private readonly bytes: boolean;

  constructor(
    private readonly sink: LogSink,
    private readonly maxBatchChars = 64 * 1024,
  ) {
    this.bytes = takesBytes(sink);
    watchForExit(this);
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= this.maxBatchChars) this.drain();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushAtTurnEnd);
    }
    return true;
  }

  /** pino's `logger.flush(cb)`: hands the batch over now, then lets the sink flush. */
  flush(cb?: (err?: Error | null) => void): void {
    this.drain();
    if (this.sink.flush) this.sink.flush(cb);
    else cb?.();
  }

  /** Writes everything synchronously when the sink can (exit, fatal errors). */
  flushSync(): void {
    this.drain();
    try {
      this.sink.flushSync?.();
    } catch {
      // sonic-boom refuses a synchronous flush before its file is open; its own exit hook retries.
    }
  }

  private drain(): void {
    if (this.lines.length === 0) return;
    const chunk = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.pendingChars = 0;
    if (this.bytes) (this.sink as ByteSink).write(Buffer.from(chunk));
    else (this.sink as LineSink).write(chunk);
  }
}

/**
 * Destinations still alive, flushed on process exit. Weak references: a host that was closed and dropped (tests
 * start hundreds) is not kept alive by this list. Registered with `prependListener` so it runs before pino's own
 * exit hook flushes and ends the sonic-boom underneath.
 */
const live = new Set<WeakRef<TurnBatchedDestination>>();
let exitHookInstalled = false;

function watchForExit(destination: TurnBatchedDestination): void {
  live.add(new WeakRef(destination));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.prependListener('exit', flushAllOnExit);
}

function flushAllOnExit(): void {
  for (const ref of live) {
    const destination = ref.deref();
    if (destination) destination.flushSync();
    else live.delete(ref);
  }
}

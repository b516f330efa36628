import type { PageRecord, PageStore, PageWrite } from './page-store.js';

/** Writes gathered before one transaction. */
const MAX_WRITES = 64;
/** Longest a write waits for its transaction: what a crash can lose (see `CrawlRun.accept` for how it is recovered). */
const MAX_DELAY_MS = 100;

/**
 * The page records of one run, written in batches: one SQLite transaction per 64 pages or 100 ms instead of one
 * per page. Each URL is written once per run, so a read of a page never needs a write still waiting here.
 */
export class PageBatch {
  private writes: PageWrite[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Transactions started and not yet ended, in order: the next one starts after them. */
  private inFlight: Promise<void> = Promise.resolve();
  /**
   * A write that failed where nothing could catch it (on the timer, or started by a full batch): the run's next
   * page or flush throws it (the run fails).
   */
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly pages: PageStore,
    private readonly spaceId: string,
    private readonly sourceId: string,
  ) {}

  put(page: PageRecord): void {
    this.add({ kind: 'put', page });
  }

  markSeen(url: string, runId: string): void {
    this.add({ kind: 'seen', url, runId });
  }

  delete(url: string): void {
    this.add({ kind: 'delete', url });
  }

  /** Writes what is waiting, in one transaction, and waits for every write started before. */
  async flush(): Promise<void> {
    this.startWrite();
    await this.inFlight;
    if (this.failure) throw this.failure.error;
  }

  private add(write: PageWrite): void {
    if (this.failure) throw this.failure.error;
    this.writes.push(write);
    if (this.writes.length >= MAX_WRITES) return this.startWrite();
    if (!this.timer) {
      this.timer = setTimeout(() => this.startWrite(), MAX_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Queues the waiting writes as the next transaction (after the ones in flight, so a page's writes keep their order). */
  private startWrite(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writes.length === 0) return;
    const writes = this.writes;
    this.writes = [];
    this.inFlight = this.inFlight
      .then(() => this.pages.write(this.spaceId, this.sourceId, writes))
      .catch((error: unknown) => {
        this.failure ??= { error };
      });
  }
}

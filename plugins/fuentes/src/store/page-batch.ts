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
  /** A write that failed on the timer, where nothing could catch it: the run's next flush throws it (the run fails). */
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

  /** Writes what is waiting, in one transaction. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.failure) throw this.failure.error;
    if (this.writes.length === 0) return;
    const writes = this.writes;
    this.writes = [];
    this.pages.write(this.spaceId, this.sourceId, writes);
  }

  private add(write: PageWrite): void {
    this.writes.push(write);
    if (this.writes.length >= MAX_WRITES) return this.flush();
    if (!this.timer) {
      this.timer = setTimeout(() => {
        try {
          this.flush();
        } catch (error) {
          this.failure = { error };
        }
      }, MAX_DELAY_MS);
      this.timer.unref();
    }
  }
}

// Search threads: the full-text match of each question runs here instead of on the main thread, where it used to
// hold every other request (40 questions in a space of 636k passages raised another space's median answer time from
// 5 ms to 11 s). With the per-space question gate (limits/space-gate.ts) one space keeps at most its share of these
// threads busy, so another space's question finds one free.
import { threadPool } from '../../../kernel/thread-pool.js';
import type { MatchedRow, MatchPlan, PlanMatcher } from '../../port/passage-index-repository.js';
import type { SearchTask } from './search-worker.js';

export interface SearchPool extends PlanMatcher {
  close(): Promise<void>;
}

/** Search threads over the database file `file` (a file: an in-memory database cannot be shared with threads). */
export function createSearchPool(file: string, threads: number): SearchPool {
  const pool = threadPool({
    filename: new URL('./search-worker-entry.cjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, threads),
    idleTimeout: 60_000,
  });
  return {
    match: async (plan: MatchPlan) =>
      (await pool.get()).run({ file, plan } satisfies SearchTask) as Promise<MatchedRow[]>,
    close: () => pool.destroy(),
  };
}

// The passage writes of the indexing runner, behind one narrow interface over the storage port's passage index
// (storage/port/passage-index-repository.ts) and the vectors that go with its passages.
import type { JobPassageSteps, JobRun } from '../../storage/port/document-job-repository.js';
import type { PassageIndexRepository, RunPassage } from '../../storage/port/passage-index-repository.js';
import type { VectorRepository } from '../../storage/port/vector-repository.js';
import type { PreparedPassage } from '../extract/prepare.js';

export type { RunPassage } from '../../storage/port/passage-index-repository.js';

/** What the runner writes to the passage index, and the steps that commit with a document's state change. */
export interface PassageWriter {
  /**
   * The passage changes that commit with a document's state change: the runner hands them to the document
   * repository, which runs them inside its transaction (both on the same backend).
   */
  readonly steps: JobPassageSteps;
  /** Stores a batch of a run's passages, hidden from searches until the swap, in one transaction. */
  addHidden(run: JobRun, batch: readonly PreparedPassage[]): Promise<void>;
  /** Up to `limit` passages of a run after `afterOrd`, in order (for the embedder). */
  runPassages(run: JobRun, afterOrd: number, limit: number): Promise<RunPassage[]>;
  /** A run that will not be swapped in: its passages wait for the purge. */
  abandonRun(run: JobRun): Promise<void>;
  /**
   * Deletes up to `limit` passages waiting for the purge, with their vectors, in one transaction. Returns how many;
   * fewer than `limit` means nothing is left.
   */
  purge(limit: number): Promise<number>;
}

/** The passage index repository (and the vectors deleted with its passages) as the runner's passage writer. */
export class PassageIndexWriter implements PassageWriter {
  readonly steps: JobPassageSteps;

  constructor(
    private readonly index: PassageIndexRepository,
    /** The vectors that go with the passages (null without an embedding model). */
    private readonly vectors: VectorRepository | null = null,
  ) {
    this.steps = index.jobSteps(vectors);
  }

  async addHidden(run: JobRun, batch: readonly PreparedPassage[]): Promise<void> {
    await this.index.addHidden(run, batch);
  }

  runPassages(run: JobRun, afterOrd: number, limit: number): Promise<RunPassage[]> {
    return this.index.runPassages(run, afterOrd, limit);
  }

  abandonRun(run: JobRun): Promise<void> {
    return this.index.abandonRun(run);
  }

  async purge(limit: number): Promise<number> {
    return (await this.index.purge(limit, this.vectors)).length;
  }
}

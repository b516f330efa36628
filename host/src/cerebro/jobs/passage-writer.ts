// The passage writes of the indexing runner, behind one narrow interface: the passage index's storage moves to the
// storage port later, and then only the implementation below changes. Today it is the SQLite PassageIndex.
import type { JobPassageSteps, JobRun } from '../../storage/port/document-job-repository.js';
import type { PreparedPassage } from '../extract/prepare.js';
import type { PassageIndex } from '../index/passage-index.js';
import type { VectorStore } from '../vector/vector-store.js';

export interface RunPassage {
  id: number;
  ord: number;
  headings: string[];
  text: string;
}

/**
 * What the runner writes to the passage index outside a document's state change (`JobPassageSteps` are the parts
 * that commit with one, run inside the document repository's transaction).
 */
export interface PassageWriter extends JobPassageSteps {
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

/** The SQLite passage index (and the vectors deleted with its passages) as the runner's passage writer. */
export class PassageIndexWriter implements PassageWriter {
  constructor(
    private readonly index: PassageIndex,
    /** The vectors that go with the passages (null without an embedding model). */
    private readonly vectors: VectorStore | null = null,
  ) {}

  async addHidden(run: JobRun, batch: readonly PreparedPassage[]): Promise<void> {
    this.index.addHidden(run, batch);
  }

  async runPassages(run: JobRun, afterOrd: number, limit: number): Promise<RunPassage[]> {
    return this.index.runPassages(run, afterOrd, limit);
  }

  async abandonRun(run: JobRun): Promise<void> {
    this.index.abandonRun(run);
  }

  async purge(limit: number): Promise<number> {
    return this.index.purge(limit, (ids) => this.vectors?.delete(ids)).length;
  }

  swapIn(run: JobRun): number {
    return this.index.swapIn(run);
  }

  hideDocument(space: string, documentId: string): void {
    this.index.hideDocument(space, documentId);
  }

  abandonDocumentRuns(space: string, documentId: string): void {
    this.index.abandonDocumentRuns(space, documentId);
  }

  abandonOrphanRuns(): void {
    this.index.abandonOrphanRuns();
  }

  deleteDocument(space: string, documentId: string): void {
    this.vectors?.delete(this.index.deleteDocument(space, documentId));
  }
}

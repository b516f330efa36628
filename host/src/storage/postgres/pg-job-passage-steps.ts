// The passage index's part of a job's transaction, as PostgreSQL needs it: each step takes the client of the
// document repository's transaction, so the passage changes commit (or roll back) with the document's state. The
// port's `JobPassageSteps` are synchronous and reach the passage index through its own handle, which SQLite's single
// connection makes one transaction; on PostgreSQL only the same client does. The PostgreSQL passage index provides
// these steps (the same names, with the client first).
import type { JobRun } from '../port/document-job-repository.js';
import type { PoolClient } from './pg-driver.js';

export type StepClient = Pick<PoolClient, 'query'>;

export interface PgJobPassageSteps {
  /** Hides the document's searchable passages and reveals the run's; returns the document's passage count. */
  swapIn(db: StepClient, run: JobRun): Promise<number>;
  /** Hides every passage of the document, runs included, for the purge. */
  hideDocument(db: StepClient, space: string, documentId: string): Promise<void>;
  /** Leaves every run of the document to the purge (its job was taken back). */
  abandonDocumentRuns(db: StepClient, space: string, documentId: string): Promise<void>;
  /** Leaves to the purge the runs of documents no process is indexing any more. */
  abandonOrphanRuns(db: StepClient): Promise<void>;
  /**
   * Deletes the document's passages at once; returns their ids (their vectors go after the commit). On PostgreSQL a
   * removed document's passages cannot outlive it (their foreign key is enforced), so `remove` deletes them.
   */
  deleteDocument(db: StepClient, space: string, documentId: string): Promise<number[]>;
}

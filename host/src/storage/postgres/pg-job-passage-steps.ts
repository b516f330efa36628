// A job's passage steps on PostgreSQL (the port's opaque `JobPassageSteps`): each takes the client of the document
// repository's transaction, so the passage changes commit (or roll back) with the document's state. The PostgreSQL
// passage index makes them (passage-index/pg-passage-steps.ts).
import type { JobPassageSteps, JobRun } from '../port/document-job-repository.js';
import type { IndexedPassage } from '../port/passage-index-repository.js';
import type { PoolClient } from './pg-driver.js';

export type StepClient = Pick<PoolClient, 'query'>;

export interface PgJobPassageSteps extends JobPassageSteps {
  readonly backend: 'postgresql';
  /** Hides the document's searchable passages and reveals the run's; returns the document's passage count. */
  swapIn(db: StepClient, run: JobRun): Promise<number>;
  /** Hides the document's searchable passages and stores `passages` searchable in their place; returns their count. */
  swapInPrepared(db: StepClient, run: JobRun, passages: readonly IndexedPassage[]): Promise<number>;
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

/** The steps as PostgreSQL runs them; another backend's steps cannot run in a PostgreSQL transaction. */
export function pgSteps(steps: JobPassageSteps): PgJobPassageSteps {
  if (steps.backend !== 'postgresql')
    throw new Error(`los pasos de pasajes de ${steps.backend} no pueden ejecutarse en una transacción de PostgreSQL`);
  return steps as PgJobPassageSteps;
}

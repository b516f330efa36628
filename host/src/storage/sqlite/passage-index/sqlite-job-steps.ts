// A job's passage steps on SQLite (the port's opaque `JobPassageSteps`): synchronous statements on the one
// connection, so inside the document repository's synchronous transaction they commit (or roll back) with it.
import type { JobPassageSteps, JobRun } from '../../port/document-job-repository.js';
import type { IndexedPassage } from '../../port/passage-index-repository.js';

export interface SqliteJobPassageSteps extends JobPassageSteps {
  readonly backend: 'sqlite';
  /** Hides the document's searchable passages and reveals the run's; returns the document's passage count. */
  swapIn(run: JobRun): number;
  /** Hides the document's searchable passages and stores `passages` searchable in their place; returns their count. */
  swapInPrepared(run: JobRun, passages: readonly IndexedPassage[]): number;
  /** Hides every passage of the document, runs included, for the purge. */
  hideDocument(space: string, documentId: string): void;
  /** Leaves every run of the document to the purge (its job was taken back). */
  abandonDocumentRuns(space: string, documentId: string): void;
  /** Leaves to the purge the runs of documents no process is indexing any more. */
  abandonOrphanRuns(): void;
  /** Deletes the document's passages (and their vectors) at once. */
  deleteDocument(space: string, documentId: string): void;
}

/** The steps as SQLite runs them; another backend's steps cannot run in a SQLite transaction. */
export function sqliteSteps(steps: JobPassageSteps): SqliteJobPassageSteps {
  if (steps.backend !== 'sqlite')
    throw new Error(`los pasos de pasajes de ${steps.backend} no pueden ejecutarse en una transacción de SQLite`);
  return steps as SqliteJobPassageSteps;
}

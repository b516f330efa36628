import type { DocumentJobRepository, DocumentReadsNow } from './document-job-repository.js';
import type { PassageIndexRepository } from './passage-index-repository.js';
import type { ProcessLeaseRepository } from './process-lease-repository.js';
import type { VectorRepositories } from './vector-repository.js';

/** The repositories the Cerebro engine indexes and searches through. */
export interface EngineStorage {
  documents: DocumentJobRepository;
  reads: DocumentReadsNow;
  leases: ProcessLeaseRepository;
  vectors: VectorRepositories;
  /** The passage index; the engine closes it when it stops (its search threads). */
  passages: PassageIndexRepository;
}

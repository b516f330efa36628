import type { DocumentJobRepository } from './document-job-repository.js';
import type { PassageIndexRepository } from './passage-index-repository.js';
import type { ProcessLeaseRepository } from './process-lease-repository.js';
import type { VectorRepositories } from './vector-repository.js';

/** The repositories the Cerebro engine indexes and searches through. */
export interface EngineStorage {
  documents: DocumentJobRepository;
  leases: ProcessLeaseRepository;
  vectors: VectorRepositories;
  /**
   * The passage index, on the same backend as `documents` (whose transactions run its job steps); the engine closes
   * it when it stops (its search threads).
   */
  passages: PassageIndexRepository;
}

import type { DocumentJobRepository, DocumentReadsNow } from './document-job-repository.js';
import type { ProcessLeaseRepository } from './process-lease-repository.js';
import type { VectorRepositories } from './vector-repository.js';

/** The repositories the Cerebro engine indexes through (its passage index still takes the database: moved later). */
export interface EngineStorage {
  documents: DocumentJobRepository;
  reads: DocumentReadsNow;
  leases: ProcessLeaseRepository;
  vectors: VectorRepositories;
}

import type { DocumentStatus } from '../cerebro/index.js';
import type { DocumentRecord } from '../storage/port/document-job-repository.js';

/**
 * A stored document record as the engine reports it: the indexing runner writes only its own extraction error codes,
 * so the stored code is one of them (the same reading the runner makes of its records).
 */
export function asStatus(record: DocumentRecord | null): DocumentStatus | null {
  return record as DocumentStatus | null;
}

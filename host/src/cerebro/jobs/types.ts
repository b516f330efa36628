// Public shapes of document records and indexing status, as the routes report them.
import type { DocumentRecord } from '../../storage/port/document-job-repository.js';
import type { ExtractionErrorCode } from '../errors.js';

export type { DocumentState } from '../../storage/port/document-job-repository.js';

/** A document record as the engine reports it: the stored record, its failure code typed. */
export interface DocumentStatus extends Omit<DocumentRecord, 'errorCode'> {
  errorCode: ExtractionErrorCode | null;
}

export interface SpaceIndexingStatus {
  space: string;
  /** 'empty' with no documents, 'indexing' while any is queued or processing, else 'ready'. */
  state: 'empty' | 'indexing' | 'ready';
  /** True when nothing is pending (failed documents do not block readiness). */
  ready: boolean;
  total: number;
  queued: number;
  processing: number;
  readyCount: number;
  failed: number;
  /** 0–1 over all documents, weighted by size. */
  progress: number;
  passages: number;
  documents: DocumentStatus[];
}

export interface SubmitDocument {
  /** File name as uploaded; the same name in the same space replaces the earlier version. */
  name: string;
  /** Path of the stored original, relative to the engine's `originalsRoot` (or absolute). */
  path: string;
  mediaType?: string;
  bytes: number;
  sha256?: string;
}

// Public shapes of document records and indexing status, as the routes report them.
import type { ExtractionErrorCode } from '../errors.js';

export type DocumentState = 'queued' | 'processing' | 'ready' | 'failed';

export interface DocumentStatus {
  id: string;
  space: string;
  name: string;
  mediaType: string;
  format: string | null;
  bytes: number;
  sha256: string | null;
  /** Where the original bytes are stored: relative to the data folder (older rows: absolute). */
  path: string;
  state: DocumentState;
  /** 0–1 while processing; 1 when ready. */
  progress: number;
  /** What processing is doing now: 'extrayendo', 'analizando', 'vectorizando', 'guardando' (null when not processing). */
  stage: string | null;
  errorCode: ExtractionErrorCode | null;
  /** Spanish reason when failed. */
  reason: string | null;
  attempts: number;
  /** Increases each time a file with the same name replaces the document. */
  version: number;
  passages: number;
  chars: number;
  pages: number | null;
  lang: string | null;
  title: string | null;
  encoding: string | null;
  createdAt: string;
  updatedAt: string;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  deadlineAt: string | null;
  /** The process whose job this is while processing (internal: never on the wire). */
  leaseOwner: string | null;
  /** Until when (ms since the epoch) that process's lease holds unless renewed. */
  leaseUntil: number | null;
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

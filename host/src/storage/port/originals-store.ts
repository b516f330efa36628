// Where document originals live (`CEREBRO_ARCHIVOS`): the data folder, a folder shared by every host, or an
// S3-compatible store. Every kind keeps the same stored names (`documentos/<space hash>/<uuid>`, what the database
// records), writes an original whole or not at all, and never changes one once written.
import type { Readable } from 'node:stream';

/** The kind of store, as health names it (`archivos`). */
export type OriginalsKind = 'carpeta_de_datos' | 'carpeta' | 's3';

/**
 * A local file holding an original's bytes, to read and then release (a temporary copy for a remote store); or, for
 * an original kept in the database, its bytes in `content` and no file (`path` empty).
 */
export interface LocalOriginal {
  path: string;
  content?: Uint8Array;
  release(): Promise<void>;
}

/** How a `putBytes` original will be read. */
export interface PutBytesOptions {
  /**
   * Indexing reads it whole (a format parsed from memory, not streamed from its file): a small one may then be kept
   * in the database instead of a file of its own, and handed to indexing as bytes.
   */
  readWhole?: boolean;
}

/** An original's bytes as a stream, with their count. */
export interface OriginalReader {
  bytes: number;
  stream: Readable;
}

/** Which stored names a document records (`DocumentJobRepository.namedOriginals` answers it). */
export interface OriginalNames {
  namedOriginals(stored: readonly string[]): Promise<string[]>;
}

/** What a start-up sweep deleted. */
export interface UnfinishedSwept {
  /** Halves of originals whose write never finished (a process killed mid-write). */
  halves: number;
  /** Whole originals no document names: their writer died between writing them and recording the document. */
  unnamed: number;
}

export interface OriginalsStore {
  readonly kind: OriginalsKind;
  /** Stores a complete local file as a new original of `space` (the file is moved or consumed); its stored name. */
  putFile(space: string, file: string): Promise<string>;
  /** Stores bytes held in memory as a new original of `space`; its stored name. */
  putBytes(space: string, content: Uint8Array, options?: PutBytesOptions): Promise<string>;
  /** The original's bytes, or null when it is not there. */
  read(stored: string): Promise<OriginalReader | null>;
  /** A local file with the original's bytes (indexing reads a file), released when done. */
  local(stored: string): Promise<LocalOriginal>;
  /** Deletes an original that no record names (it was never recorded). */
  discard(stored: string): Promise<void>;
  /** Takes a replaced or removed version out of use; it is deleted now or by `purgeRetired`. */
  retire(stored: string): Promise<void>;
  /** Deletes the retired originals that may go now; how many went. */
  purgeRetired(): Promise<number>;
  /**
   * Deletes what writes that never finished left behind (a process killed mid-upload, or between storing an original
   * and recording its document) once it is older than `olderThanMs`, so a write still running on another host is
   * never touched; an original `names` says a document names is never deleted. How many went.
   */
  sweepUnfinished(olderThanMs: number, names: OriginalNames): Promise<UnfinishedSwept>;
}

import type { IncomingMessage } from 'node:http';

/** One file received from a multipart body, streamed to a temporary file. */
export interface ReceivedFile {
  /** Form field name. */
  readonly field: string;
  /** File name as sent by the client (untrusted: never use it as a path). */
  readonly filename: string;
  readonly mimeType: string;
  /** Absolute path of the temporary copy. Deleted by `cleanup()`. */
  readonly path: string;
  readonly bytes: number;
}

export interface ReceivedForm {
  readonly files: readonly ReceivedFile[];
  readonly fields: Readonly<Record<string, string>>;
  /** Removes every temporary file. Safe to call more than once. */
  cleanup(): Promise<void>;
}

export interface UploadLimits {
  /** Maximum size of one file in bytes, inclusive: a file of exactly this size is accepted; one byte more stops reading at once. */
  maxFileBytes: number;
  /** Maximum number of files. */
  maxFiles: number;
  /** Maximum number of non-file fields. Default 20. */
  maxFields?: number;
}

/** Why an upload was refused; the caller maps it to its own error body. */
export type UploadFailure =
  | 'file_too_large'
  | 'too_many_files'
  | 'too_many_fields'
  | 'not_multipart'
  | 'malformed'
  | 'aborted';

export class UploadError extends Error {
  constructor(
    readonly reason: UploadFailure,
    message: string,
    /** Field of the offending file, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * Streams a multipart/form-data body to temporary files with limits enforced while reading.
 * On failure every temporary file already written is removed before the promise rejects with an `UploadError`.
 */
export interface UploadReceiver {
  receive(req: IncomingMessage, limits: UploadLimits): Promise<ReceivedForm>;
}

import { createToken } from '@cerebro/sdk';

/**
 * Small originals kept in the host database (`cerebro_inline_originals`) instead of one file each
 * (storage/originals/inline-originals-store.ts): written once under a new name, read, deleted; never changed.
 */
export interface InlineOriginalRepository {
  /** `at`: when it is written (ms since the epoch), for `removeUnnamed`. */
  put(stored: string, content: Uint8Array, at: number): Promise<void>;
  /** The original's bytes; null when it is not there. */
  get(stored: string): Promise<Buffer | null>;
  /** Deletes it; one already gone is no error. */
  remove(stored: string): Promise<void>;
  /**
   * Deletes the originals written before `before` that no document names (`cerebro_documents.path`): those a process
   * wrote and died before recording. Returns how many went.
   */
  removeUnnamed(before: number): Promise<number>;
}

export const InlineOriginalRepositoryToken = createToken<InlineOriginalRepository>('host:inline-original-repository');
